import RxSwift
import RxTest
import XCTest

final class AmbTests: RxLeakCheckingTestCase {
    func testLeftFirstWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(250)])
        let ys = scheduler.createHotObservable([.next(215, 10), .completed(300)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testRightFirstWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1), .completed(250)])
        let ys = scheduler.createHotObservable("^a-b-|", values: ["a": 10, "b": 20])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertMarbles(res, "^a-b-|", values: ["a": 10, "b": 20])
        XCTAssertEqual(xs.subscriptions.count, 1)
        XCTAssertMarbles(ys.subscriptions, "^----!")
    }

    func testATerminalEventDecidesToo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1), .completed(250)])
        let ys: TestableObservable<Int> = scheduler.createHotObservable([.error(205, testError)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.error(205, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 205)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 205)])
    }

    func testEmptyWinsAgainstLaterElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(205)])
        let ys = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.completed(205)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 205)])
    }

    func testWinnersErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let ys = scheduler.createHotObservable([.next(220, 2)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testNeverAndNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let ys = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
    }

    func testStaticOverASequenceDisposesEveryLoser() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(240, 1), .completed(300)])
        let b = scheduler.createHotObservable([.next(230, 2), .completed(300)])
        let c = scheduler.createHotObservable([.next(220, 3), .next(250, 4), .completed(260)])
        let res = scheduler.start { Observable.amb([a, b, c].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(220, 3), .next(250, 4), .completed(260)])
        XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(b.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(c.subscriptions, [Subscription(200, 260)])
    }

    func testStaticOverAnEmptySequenceNeverEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.amb([Observable<Int>]()) }
        XCTAssertEqual(res.events, [])
    }

    func testEarlyDisposalEndsEverySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1)])
        let ys = scheduler.createHotObservable([.next(230, 2)])
        let res = scheduler.start(disposed: 210) { xs.amb(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    /// A source that emits on subscription wins before the next is subscribed; that one is then
    /// subscribed and disposed at once (as in RxSwift).
    func testSourceEmittingOnSubscriptionWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createHotObservable([.next(210, 2)])
        let res = scheduler.start { Observable.just(1).amb(ys) }
        XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 200)])
    }

    func testDisposingFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1), .next(230, 2)])
        let ys = scheduler.createHotObservable([.next(210, 10), .next(240, 20)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.amb(ys).subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [10])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
        subscription = nil
    }
}
