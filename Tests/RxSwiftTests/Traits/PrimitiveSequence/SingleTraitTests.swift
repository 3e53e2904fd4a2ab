import RxSwift
import RxTest
import XCTest

final class SingleTraitTests: RxLeakCheckingTestCase {
    private func cold(_ scheduler: TestScheduler, _ value: Int = 1, at time: TestTime = 10) -> Single<Int> {
        scheduler.createColdObservable([.next(time, value), .completed(time)]).asSingle()
    }

    func testCreateDeliversTheResultAndDisposes() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposed = 0
        let single = Single<Int>.create { observer in
            observer(.success(5))
            return Disposables.create { disposed += 1 }
        }
        let res = scheduler.start(disposed: 1090) { single.asObservable() }
        XCTAssertEqual(res.events, [.next(200, 5), .completed(200)])
        XCTAssertEqual(disposed, 1)
        let failing = Single<Int>.create { observer in
            observer(.failure(testError))
            return Disposables.create()
        }
        let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) { failing.asObservable() }
        XCTAssertEqual(failed.events, [.error(1200, testError)])
    }

    func testSubscribeClosuresAndOrderOfOnDisposed() {
        var log: [String] = []
        _ = Single.just(1).subscribe(
            onSuccess: { log.append("success \($0)") }, onFailure: { _ in log.append("failure") },
            onDisposed: { log.append("disposed") })
        _ = Single<Int>.error(testError).subscribe(
            onSuccess: { _ in log.append("success") }, onFailure: { _ in log.append("failure") },
            onDisposed: { log.append("disposed") })
        XCTAssertEqual(log, ["success 1", "disposed", "failure", "disposed"])
    }

    func testSubscribeWithSingleEvents() {
        var results: [String] = []
        _ = Single.just(2).subscribe { event in
            if case .success(let value) = event { results.append("success \(value)") }
        }
        _ = Single<Int>.error(testError).subscribe { event in
            if case .failure = event { results.append("failure") }
        }
        let never = Single<Int>.never().subscribe { _ in results.append("never") }
        never.dispose()
        XCTAssertEqual(results, ["success 2", "failure"])
    }

    func testSubscribeWithAnObjectStopsOnceTheObjectIsGone() {
        final class Owner {}
        var owner: Owner? = Owner()
        var values: [Int] = []
        let subject = PublishSubject<Int>()
        let subscription = subject.take(1).asSingle().subscribe(
            with: owner!, onSuccess: { _, value in values.append(value) })
        owner = nil
        subject.onNext(3)
        XCTAssertEqual(values, [])
        subscription.dispose()
    }

    func testMapFilterCompactMap() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(
            scheduler.start(disposed: 290) { self.cold(scheduler).map { $0 * 10 }.asObservable() }.events,
            [.next(210, 10), .completed(210)])
        let filtered = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            self.cold(scheduler).filter { $0 > 1 }.asObservable()
        }
        XCTAssertEqual(filtered.events, [.completed(310)])
        let compacted = scheduler.start(created: 400, subscribed: 400, disposed: 1000) {
            self.cold(scheduler).compactMap { $0 == 1 ? "one" : nil }.asObservable()
        }
        XCTAssertEqual(compacted.events, [.next(410, "one"), .completed(410)])
    }

    func testThrowingMapFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { self.cold(scheduler).map { _ -> Int in throw testError }.asObservable() }
        XCTAssertEqual(res.events, [.error(210, testError)])
    }

    func testFlatMapFamilySubscribesTheNextAtTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let second = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let res = scheduler.start(disposed: 290) {
            self.cold(scheduler).flatMap { _ in second.asSingle() }.asObservable()
        }
        XCTAssertEqual(res.events, [.next(230, 2), .completed(230)])
        XCTAssertEqual(second.subscriptions, [Subscription(210, 230)])
        let maybe = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            self.cold(scheduler).flatMapMaybe { _ in Maybe<Int>.empty() }.asObservable()
        }
        XCTAssertEqual(maybe.events, [.completed(310)])
        let completable = scheduler.start(created: 400, subscribed: 400, disposed: 1000) {
            self.cold(scheduler).flatMapCompletable { _ in Completable.error(testError) }.asObservable()
        }
        XCTAssertEqual(completable.events, [.error(410, testError)])
    }

    func testCatchAndReturnAndConversions() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        XCTAssertEqual(
            scheduler.start(disposed: 290) { failing.asSingle().catchAndReturn(7).asObservable() }.events,
            [.next(210, 7), .completed(210)])
        let maybe = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            self.cold(scheduler).asMaybe().asObservable()
        }
        XCTAssertEqual(maybe.events, [.next(310, 1), .completed(310)])
        let completable = scheduler.start(created: 400, subscribed: 400, disposed: 1000) {
            self.cold(scheduler).asCompletable().asObservable()
        }
        XCTAssertEqual(completable.events, [.completed(410)])
    }

    func testDoRunsAroundTheElement() {
        var log: [String] = []
        _ = Single.just(1)
            .do(
                onSuccess: { log.append("on \($0)") }, afterSuccess: { log.append("after \($0)") },
                onSubscribe: { log.append("subscribe") }, onDispose: { log.append("dispose") }
            )
            .subscribe(onSuccess: { log.append("got \($0)") })
        XCTAssertEqual(log, ["subscribe", "on 1", "got 1", "after 1", "dispose"])
    }

    func testSharedOperatorsKeepTheTrait() {
        let scheduler = TestScheduler(initialClock: 0)
        let delayed = scheduler.start(disposed: 290) {
            self.cold(scheduler).delay(.seconds(5), scheduler: scheduler).asObservable()
        }
        // As `delay` on Observable (and in RxSwift): events due together come out one scheduled run apart.
        XCTAssertEqual(delayed.events, [.next(215, 1), .completed(216)])
        let never = Single<Int>.never()
        let timedOut = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            never.timeout(.seconds(50), scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(timedOut.events, [.error(350, RxError.timeout)])
        var attempts = 0
        let retried = Single<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(testError) : .just(attempts)
        }
        .retry(3)
        XCTAssertEqual(
            scheduler.start(created: 400, subscribed: 400, disposed: 490) { retried.asObservable() }.events,
            [.next(400, 3), .completed(400)])
        let caught = Single<Int>.error(testError).catch { _ in .just(9) }
        XCTAssertEqual(
            scheduler.start(created: 500, subscribed: 500, disposed: 1000) { caught.asObservable() }.events,
            [.next(500, 9), .completed(500)])
    }
}
