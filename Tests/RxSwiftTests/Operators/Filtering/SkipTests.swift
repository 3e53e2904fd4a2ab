import RxSwift
import RxTest
import XCTest

final class SkipTests: RxLeakCheckingTestCase {
    // MARK: - skip(_ count:)

    func testSkipCountDropsTheFirstElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^bcde|", values: ["a": 0, "b": 1, "c": 2, "d": 3, "e": 4])
        let res = scheduler.start { xs.skip(2) }
        XCTAssertMarbles(res, "^--de|", values: ["d": 3, "e": 4])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testSkipZeroAndNegativePassEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let zero = scheduler.createObserver(Int.self)
        let negative = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = xs.skip(0).subscribe(zero)
            _ = xs.skip(-3).subscribe(negative)
        }
        scheduler.start()
        XCTAssertMarbles(zero, "^ab|", values: ["a": 1, "b": 2])
        XCTAssertMarbles(negative, "^ab|", values: ["a": 1, "b": 2])
    }

    func testSkipMoreThanTheSourceHas() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.skip(5) }
        XCTAssertMarbles(res, "^--|")
    }

    func testSkipCountNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a", values: ["a": 1])
        let res = scheduler.start { xs.skip(1) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testSkipCountForwardsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab#", values: ["a": 1, "b": 2], error: testError)
        let res = scheduler.start { xs.skip(1) }
        XCTAssertMarbles(res, "^-b#", values: ["b": 2], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testSkipCountDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc-d|", values: ["a": 1, "b": 2, "c": 3, "d": 4])
        let res = scheduler.start(disposed: 240) { xs.skip(1) }
        XCTAssertMarbles(res, "^-bc", values: ["b": 2, "c": 3])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    // MARK: - skip(_ duration:scheduler:)

    /// The timer is scheduled before the source is subscribed: a hot element at exactly the end of
    /// the duration was scheduled even earlier, so it is dropped (as in RxSwift).
    func testSkipTimeDropsWhatArrivesBeforeTheTimerFired() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(215, 2), .next(216, 3), .next(230, 4), .completed(240),
        ])
        let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(216, 3), .next(230, 4), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    /// A cold source schedules its events when subscribed, after the timer: its element at exactly
    /// the end of the duration passes.
    func testSkipTimeColdElementAtTheBoundaryPasses() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(15, 2), .next(20, 3), .completed(30)])
        let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(215, 2), .next(220, 3), .completed(230)])
    }

    /// On a `TestScheduler` a zero duration fires one tick after the subscription.
    func testSkipTimeZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(201, 1), .next(202, 2), .completed(230)])
        let res = scheduler.start { xs.skip(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(202, 2), .completed(230)])
    }

    func testSkipTimeCompletesAtOnceBeforeTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a|", values: ["a": 1])
        let res = scheduler.start { xs.skip(.seconds(100), scheduler: scheduler) }
        XCTAssertMarbles(res, "^-|")
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testSkipTimeForwardsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b#", values: ["a": 1, "b": 2], error: testError)
        let res = scheduler.start { xs.skip(.seconds(20), scheduler: scheduler) }
        XCTAssertMarbles(res, "^--b#", values: ["b": 2], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testSkipTimeNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.skip(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testSkipTimeDisposedBeforeTheTimerCancelsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a---b|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 220) { xs.skip(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testSkipTimeOnARealSchedulerPassesLaterElements() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.skipTime")
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.skip(.milliseconds(30), scheduler: scheduler).subscribe(onNext: {
            received.append($0)
        })
        subject.onNext(1)
        Thread.sleep(forTimeInterval: 0.2)
        subject.onNext(2)
        XCTAssertEqual(received, [2])
        subscription.dispose()
    }
}
