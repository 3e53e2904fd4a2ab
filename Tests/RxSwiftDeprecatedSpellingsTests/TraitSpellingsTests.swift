import RxSwift
import RxTest
import XCTest

// Uses the names of RxSwift 4–5 on purpose: this target compiles with deprecation warnings only.
final class TraitSpellingsTests: RxLeakCheckingTestCase {
    private func run(_ scheduler: TestScheduler, _ single: Single<Int>) -> [Recorded<Event<Int>>] {
        scheduler.start { single.asObservable() }.events
    }

    func testObserveOnAndSubscribeOnAreTheirCurrentSpellings() {
        let old = TestScheduler(initialClock: 0)
        let new = TestScheduler(initialClock: 0)
        XCTAssertEqual(
            run(old, Single.just(1).observeOn(old).subscribeOn(old)),
            run(new, Single.just(1).observe(on: new).subscribe(on: new)))
    }

    func testCatchErrorAndCatchErrorJustReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(
            run(scheduler, Single<Int>.error(testError).catchError { _ in .just(2) }), [.next(200, 2), .completed(200)])
        var log: [Int] = []
        _ = Single<Int>.error(testError).catchErrorJustReturn(3).subscribe(onSuccess: { log.append($0) })
        _ = Maybe<Int>.error(testError).catchErrorJustReturn(4).subscribe(onSuccess: { log.append($0) })
        XCTAssertEqual(log, [3, 4])
    }

    func testRetryWhenAndSubscribeOnError() {
        var attempts = 0
        let single = Single<Int>.deferred {
            attempts += 1
            return attempts < 2 ? .error(testError) : .just(attempts)
        }
        var log: [String] = []
        _ = single.retryWhen { (errors: Observable<Swift.Error>) in errors }
            .subscribe(onSuccess: { log.append("success \($0)") }, onError: { _ in log.append("error") })
        XCTAssertEqual(log, ["success 2"])
    }
}
