import RxSwift
import RxTest
import XCTest

// Uses the names of RxSwift 4–5 on purpose: this target compiles with deprecation warnings only.
final class ErrorHandlingSpellingsTests: RxLeakCheckingTestCase {
    private func failingTwice(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError)])
    }

    func testCatchErrorIsCatch() {
        let events = assertSameBehaviour(
            of: failingTwice,
            old: { xs, _ in xs.catchError { _ in .just(9) } },
            new: { xs, _ in xs.catch { _ in .just(9) } })
        XCTAssertEqual(events, [.next(210, 1), .next(220, 2), .next(230, 9), .completed(230)])
    }

    func testCatchErrorJustReturnIsCatchAndReturn() {
        let events = assertSameBehaviour(
            of: failingTwice,
            old: { xs, _ in xs.catchErrorJustReturn(-1) },
            new: { xs, _ in xs.catchAndReturn(-1) })
        XCTAssertEqual(events, [.next(210, 1), .next(220, 2), .next(230, -1), .completed(230)])
    }

    func testStaticCatchErrorIsCatchSequence() {
        let events = assertSameBehaviour(
            of: failingTwice,
            old: { xs, _ in Observable.catchError([xs, .just(3)]) },
            new: { xs, _ in Observable.catch(sequence: [xs, .just(3)]) })
        XCTAssertEqual(events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
    }

    func testRetryWhenIsRetryWhen() {
        let events = assertSameBehaviour(
            of: failingTwice, disposed: 290,
            old: { xs, _ in xs.retryWhen { (errors: Observable<TestError>) in errors } },
            new: { xs, _ in xs.retry(when: { (errors: Observable<TestError>) in errors }) })
        XCTAssertEqual(
            events,
            [.next(210, 1), .next(220, 2), .next(240, 1), .next(250, 2), .next(270, 1), .next(280, 2)])
    }

    func testRetryWhenOverSwiftErrorIsRetryWhen() {
        let events = assertSameBehaviour(
            of: failingTwice, disposed: 300,
            old: { xs, _ in
                xs.retryWhen { (errors: Observable<Swift.Error>) in
                    errors.map { error -> Int in throw error }
                }
            },
            new: { xs, _ in
                xs.retry(when: { (errors: Observable<Swift.Error>) in
                    errors.map { error -> Int in throw error }
                })
            })
        XCTAssertEqual(events, [.next(210, 1), .next(220, 2), .error(230, testError)])
    }

    func testObserveOnAndSubscribeOnAreObserveAndSubscribe() {
        let events = assertSameBehaviour(
            of: failingTwice,
            old: { xs, scheduler in xs.subscribeOn(scheduler).observeOn(scheduler) },
            new: { xs, scheduler in xs.subscribe(on: scheduler).observe(on: scheduler) })
        XCTAssertEqual(events, [.next(212, 1), .next(222, 2), .error(232, testError)])
    }
}
