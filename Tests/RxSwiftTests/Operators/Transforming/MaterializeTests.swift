import RxSwift
import RxTest
import XCTest

final class MaterializeTests: RxLeakCheckingTestCase {
    // MARK: materialize

    func testElementsAndCompletionBecomeElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, Event.next(1)), .next(230, Event.next(2)), .next(240, Event<Int>.completed),
                .completed(240),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testErrorBecomesALastElementThenCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(
            res.events, [.next(210, Event.next(1)), .next(220, Event<Int>.error(testError)), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testMaterializeNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testMaterializeEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        let res = scheduler.start { xs.materialize() }
        XCTAssertEqual(res.events, [.next(230, Event<Int>.completed), .completed(230)])
    }

    func testMaterializeDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b-|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 220) { xs.materialize() }
        XCTAssertEqual(res.events, [.next(210, Event.next(1))])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    // MARK: dematerialize

    func testEventElementsBecomeEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, Event.next(0)), .next(210, Event.next(1)), .next(220, Event.next(2)),
            .next(240, Event<Int>.completed), .next(250, Event.next(3)),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testErrorElementEndsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Event.next(1)), .next(230, Event<Int>.error(testError)), .completed(300),
        ])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDematerializeForwardsTheSourcesOwnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event.next(1)), .completed(220)])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDematerializeUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event.next(1)), .error(230, testError)])
        let res = scheduler.start { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDematerializeNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Event<Int>>>]())
        let empty = scheduler.createHotObservable([Recorded<Event<Event<Int>>>.completed(250)])
        let neverRes = scheduler.createObserver(Int.self)
        let emptyRes = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(never.dematerialize().subscribe(neverRes))
            subscriptions.append(empty.dematerialize().subscribe(emptyRes))
        }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(neverRes.events, [])
        XCTAssertEqual(emptyRes.events, [.completed(250)])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 250)])
    }

    func testDematerializeDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Event.next(1)), .next(230, Event.next(2))])
        let res = scheduler.start(disposed: 220) { xs.dematerialize() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRoundTripIsTheIdentity() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab-c#", values: ["a": 1, "b": 2, "c": 3], error: testError)
        let res = scheduler.start { xs.materialize().dematerialize() }
        XCTAssertMarbles(res, "^ab-c#", values: ["a": 1, "b": 2, "c": 3], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testReentrantEventsKeepTheirOrder() {
        let subject = PublishSubject<Event<Int>>()
        var log: [String] = []
        let subscription = subject.dematerialize().subscribe(
            onNext: { value in
                log.append("\(value)")
                if value == 1 { subject.onNext(.completed) }
            },
            onCompleted: { log.append("completed") })
        subject.onNext(.next(1))
        subject.onNext(.next(2))
        XCTAssertEqual(log, ["1", "completed"])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }
}
