import RxSwift
import RxTest
import XCTest

final class TakeTests: RxLeakCheckingTestCase {
    // MARK: - take(_ count:)

    func testTakeCompletesAtTheLastElementAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^bc-de|", values: ["a": 0, "b": 1, "c": 2, "d": 3, "e": 4])
        let res = scheduler.start { xs.take(3) }
        XCTAssertMarbles(res, "^bc-(d|)", values: ["b": 1, "c": 2, "d": 3])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    /// As in RxSwift, `take(0)` is `empty()`: it completes at the subscription and never subscribes.
    func testTakeZeroNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.take(0) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testTakeMoreThanTheSourceHas() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.take(5) }
        XCTAssertMarbles(res, "^ab|", values: ["a": 1, "b": 2])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testTakeNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a", values: ["a": 1])
        let res = scheduler.start { xs.take(2) }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testTakeEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.take(1) }
        XCTAssertMarbles(res, "^-|")
    }

    func testTakeForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.take(3) }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testTakeDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a--b|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 230) { xs.take(2) }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testTakeStopsAnEndlessSynchronousSource() {
        var received: [Int] = []
        var completed = false
        _ = Observable.repeatElement(7).take(3).subscribe(
            onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, [7, 7, 7])
        XCTAssertTrue(completed)
    }

    func testTakeCountsAReentrantElement() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.take(2).subscribe { event in
            events.append(event)
            if event.element == 1 { subject.onNext(10) }
        }
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(events, [.next(1), .next(10), .completed])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    // MARK: - take(for:scheduler:)

    /// A hot element at exactly the end of the duration was scheduled before the timer, so it is
    /// still passed on, and the completion follows at the same time.
    func testTakeForCompletesWhenTheTimerFires() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
        ])
        let res = scheduler.start { xs.take(for: .seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    /// A cold source's element at the end of the duration is scheduled after the timer: dropped.
    func testTakeForColdElementAtTheBoundaryIsDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(30, 2), .completed(40)])
        let res = scheduler.start { xs.take(for: .seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
    }

    func testTakeForSourceCompletesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.take(for: .seconds(100), scheduler: scheduler) }
        XCTAssertMarbles(res, "^ab|", values: ["a": 1, "b": 2])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testTakeForNeverCompletesAtTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testTakeForForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.take(for: .seconds(100), scheduler: scheduler) }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testTakeForDisposedBeforeTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a---b|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 230) { xs.take(for: .seconds(100), scheduler: scheduler) }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testTakeForSynchronousSourceCompletesDuringSubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).take(for: .seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(200)])
    }

    func testTakeForElementSentFromInsideOnNextIsDeliveredAfterTheCurrentOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.take(for: .seconds(10), scheduler: scheduler).subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subject.onNext(2) }
            received.append(-value)
        })
        subject.onNext(1)
        XCTAssertEqual(received, [1, -1, 2, -2])
        subscription.dispose()
    }
}
