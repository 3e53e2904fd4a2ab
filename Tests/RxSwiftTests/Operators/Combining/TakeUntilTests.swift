import RxSwift
import RxTest
import XCTest

final class TakeUntilTests: RxLeakCheckingTestCase {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(240, 3), .completed(300),
        ])
    }

    func testCompletesAtTheOthersFirstElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([.next(150, "x"), .next(230, "a"), .next(250, "b")])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testOtherNeverPassesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([Recorded<Event<String>>]())
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    /// As in RxSwift: the other's completion without an element only ends its own subscription.
    func testOtherEmptyOnlyEndsItsSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys: TestableObservable<String> = scheduler.createHotObservable([.completed(215)])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])
    }

    func testOtherErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys: TestableObservable<String> = scheduler.createHotObservable([.error(225, testError)])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testSourceErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let ys = scheduler.createHotObservable([.next(250, "a")])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testSourceEmptyAndMarbles() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        let ys = scheduler.createHotObservable("^-----a", values: ["a": 1])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertMarbles(res, "^--|")
        XCTAssertMarbles(xs.subscriptions, "^--!")
        XCTAssertMarbles(ys.subscriptions, "^--!")
    }

    func testNeverAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testEarlyDisposalEndsBothSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([.next(260, "a")])
        let res = scheduler.start(disposed: 215) { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])
    }

    /// The other is subscribed first: one that emits on subscription completes at once, and the source
    /// is subscribed and disposed at the same tick (as in RxSwift).
    func testOtherEmittingOnSubscriptionCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start { xs.take(until: Observable.just(1)) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
    }

    func testSourceEmittingOnSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createHotObservable([.next(250, "a")])
        let res = scheduler.start { synchronousSource([1, 2, 3]).take(until: ys) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 200)])
    }

    func testDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([.next(260, "a")])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.take(until: ys).subscribe(onNext: { value in
                received.append(value)
                if value == 2 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
        subscription = nil
    }

    /// Divergence from RxSwift (whose recursive lock delivers depth-first): an event caused from inside
    /// a delivery is delivered right after that delivery returns, never nested inside it.
    func testOtherEmittingFromInsideOnNextCompletesAfterThatOnNextReturns() {
        let source = PublishSubject<Int>()
        let other = PublishSubject<Void>()
        var log: [String] = []
        let subscription = source.take(until: other).subscribe(
            onNext: { value in
                log.append("next \(value)")
                if value == 2 { other.onNext(()) }
                log.append("after \(value)")
            },
            onCompleted: { log.append("completed") })
        source.onNext(1)
        source.onNext(2)
        source.onNext(3)
        XCTAssertEqual(log, ["next 1", "after 1", "next 2", "after 2", "completed"])
        XCTAssertFalse(other.hasObservers)
        XCTAssertFalse(source.hasObservers)
        subscription.dispose()
    }
}
