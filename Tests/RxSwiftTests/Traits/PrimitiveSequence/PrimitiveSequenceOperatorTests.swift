import RxSwift
import RxTest
import XCTest

/// The shared trait operators and the remaining creation and subscription forms, in virtual time.
final class PrimitiveSequenceOperatorTests: RxLeakCheckingTestCase {
    private func single(_ scheduler: TestScheduler, _ value: Int = 1, at time: TestTime = 10) -> TestableObservable<Int>
    {
        scheduler.createColdObservable([.next(time, value), .completed(time)])
    }

    func testDelaySubscriptionSubscribesLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = single(scheduler)
        let res = scheduler.start { xs.asSingle().delaySubscription(.seconds(30), scheduler: scheduler).asObservable() }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)])
    }

    func testObserveOnAndSubscribeOnUseTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = single(scheduler)
        let res = scheduler.start { xs.asSingle().subscribe(on: scheduler).observe(on: scheduler).asObservable() }
        // subscribe(on:) subscribes one scheduled run later; observe(on:) schedules one run per event.
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 211)])
        XCTAssertEqual(res.events, [.next(212, 1), .completed(213)])
    }

    func testTimeoutSwitchesToTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = single(scheduler, 1, at: 100)
        let res = scheduler.start {
            slow.asSingle().timeout(.seconds(20), other: .just(9), scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(res.events, [.next(220, 9), .completed(220)])
        XCTAssertEqual(slow.subscriptions, [Subscription(200, 220)])
    }

    func testTimerDeliversZeroAfterTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.timer(.seconds(30), scheduler: scheduler).asObservable() }
        XCTAssertEqual(res.events, [.next(230, 0), .completed(230)])
    }

    func testRetryWhenResubscribesOnTheTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start {
            failing.asSingle()
                .retry(when: { (errors: Observable<Swift.Error>) in errors.take(2) })
                .asObservable()
        }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(failing.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
    }

    func testUsingDisposesTheResourceWithTheSubscription() {
        /// A resource that records when it is disposed. Used on the test's thread only.
        final class Resource: Disposable, @unchecked Sendable {
            var disposedAt: TestTime?
            let scheduler: TestScheduler
            init(_ scheduler: TestScheduler) { self.scheduler = scheduler }
            func dispose() { disposedAt = scheduler.clock }
        }
        let scheduler = TestScheduler(initialClock: 0)
        let resource = Resource(scheduler)
        let res = scheduler.start {
            Single<Int>.using({ resource }, primitiveSequenceFactory: { _ in self.single(scheduler).asSingle() })
                .asObservable()
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(resource.disposedAt, 210)
    }

    func testDebugPassesEventsThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { self.single(scheduler).asSingle().debug("trait").asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
    }

    func testJustOnASchedulerAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let single = scheduler.start(disposed: 290) { Single.just(1, scheduler: scheduler).asObservable() }
        XCTAssertEqual(single.events, [.next(201, 1), .completed(202)])
        let maybe = scheduler.start(created: 300, subscribed: 300, disposed: 390) {
            Maybe.just(2, scheduler: scheduler).asObservable()
        }
        XCTAssertEqual(maybe.events, [.next(301, 2), .completed(302)])
        let never = scheduler.start(created: 400, subscribed: 400, disposed: 1000) {
            Observable.merge(
                Single<Int>.never().asObservable(), Maybe<Int>.never().asObservable(),
                Completable.never().andThen(Observable<Int>.never()))
        }
        XCTAssertEqual(never.events, [])
    }

    func testMaybeCompactMapAndDo() {
        var log: [String] = []
        _ = Maybe.just(3)
            .compactMap { $0 > 2 ? "\($0)" : nil }
            .do(onNext: { log.append("on \($0)") }, onCompleted: { log.append("completed") })
            .subscribe(onSuccess: { log.append("got \($0)") })
        _ = Maybe.just(1).compactMap { $0 > 2 ? $0 : nil }.subscribe(onCompleted: { log.append("empty") })
        XCTAssertEqual(log, ["on 3", "got 3", "completed", "empty"])
    }

    func testSubscribeWithAnObjectForMaybeAndCompletable() {
        final class Owner {}
        let owner = Owner()
        var log: [String] = []
        _ = Maybe.just(1).subscribe(with: owner, onSuccess: { _, value in log.append("maybe \(value)") })
        _ = Completable.empty().subscribe(with: owner, onCompleted: { _ in log.append("completable") })
        XCTAssertEqual(log, ["maybe 1", "completable"])
    }
}
