import RxSwift
import RxTest
import XCTest

final class SkipUntilTests: RxLeakCheckingTestCase {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4), .completed(300),
        ])
    }

    func testPassesElementsAfterTheOthersFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([.next(150, "x"), .next(225, "a"), .next(245, "b")])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.next(240, 3), .next(250, 4), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    /// As in RxSwift: the source's completion while the gate is closed ends everything silently.
    func testSourceCompletingWhileClosedNeverTerminates() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([Recorded<Event<String>>]())
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testOtherEmptyKeepsTheGateClosed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys: TestableObservable<String> = scheduler.createHotObservable([.completed(215)])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])
    }

    func testOtherErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys: TestableObservable<String> = scheduler.createHotObservable([.error(225, testError)])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testSourceErrorIsForwardedWhileClosed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let ys = scheduler.createHotObservable([.next(250, "a")])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab-cd|", values: ["a": 1, "b": 2, "c": 3, "d": 4])
        let ys = scheduler.createHotObservable("^--x---", values: ["x": 0])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertMarbles(res, "^---cd|", values: ["c": 3, "d": 4])
        XCTAssertMarbles(xs.subscriptions, "^-----!")
        XCTAssertMarbles(ys.subscriptions, "^--!")
    }

    func testNeverAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testEarlyDisposalEndsBothSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([.next(260, "a")])
        let res = scheduler.start(disposed: 245) { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 245)])
    }

    func testOtherEmittingOnSubscriptionOpensAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.skip(until: Observable.just(1)) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4), .completed(300)])
    }

    /// The source is subscribed first: one that emits and completes on subscription does so while the
    /// gate is still closed (as in RxSwift), and the other is then subscribed and disposed at once.
    func testSourceEmittingOnSubscriptionIsSkipped() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createHotObservable([.next(250, "a")])
        let res = scheduler.start { synchronousSource([1, 2, 3]).skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 200)])
    }

    func testDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([.next(215, "a")])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.skip(until: ys).subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [2])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])
        subscription = nil
    }
}
