import RxSwift
import RxTest
import XCTest

final class SampleTests: RxLeakCheckingTestCase {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6),
            .completed(400),
        ])
    }

    private func sampler(_ scheduler: TestScheduler) -> TestableObservable<String> {
        scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"),
            .completed(500),
        ])
    }

    /// The source's completion waits for the next tick; the sampler's completion is a tick.
    func testSamplesTheLatestElementAtEachTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(320, 6), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 500)])
    }

    func testDefaultValueAtTicksWithoutANewElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        XCTAssertEqual(
            res.events,
            [.next(210, 0), .next(250, 3), .next(260, 0), .next(320, 6), .next(500, 0), .completed(500)])
    }

    func testSamplerCompletionFlushesTheLatestElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let ys: TestableObservable<Int> = scheduler.createHotObservable([.completed(240)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(240, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
    }

    /// As in RxSwift: once the sampler completed, nothing ticks, so the source's completion is never
    /// delivered. (The sampler's recorded subscription ends at its completion because a test
    /// observable, like any hand-written `ObservableType`, is adapted by a wrapper that disposes on a
    /// terminal event, as RxSwift's `asObservable()` does.)
    func testSamplerCompletedBeforeTheSourceNeverCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(240)])
        let ys: TestableObservable<Int> = scheduler.createHotObservable([.completed(220)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab-c-d--|", values: ["a": 1, "b": 2, "c": 3, "d": 4])
        let ys = scheduler.createHotObservable("^--t--t-t-t", values: ["t": 0])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertMarbles(res, "^--b--d---|", values: ["b": 2, "d": 4])
        XCTAssertMarbles(xs.subscriptions, "^--------!")
    }

    func testSourceErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testSamplerErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([.next(250, "a"), .error(260, testError)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
    }

    func testEmptySourceCompletesAtTheNextTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(205)])
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 205)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testNeverAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testEarlyDisposalEndsBothSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = sampler(scheduler)
        let res = scheduler.start(disposed: 300) { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    /// The source is subscribed first: a synchronous source has delivered and completed before a
    /// synchronous sampler ticks, so its last element and its completion arrive at that tick.
    func testBothEmittingOnSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { synchronousSource([1, 2, 3]).sample(Observable.just("t")) }
        XCTAssertEqual(res.events, [.next(200, 3), .completed(200)])
    }

    func testDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = sampler(scheduler)
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.sample(ys).subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [3])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
        subscription = nil
    }
}
