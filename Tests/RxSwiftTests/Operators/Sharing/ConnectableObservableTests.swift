import RxSwift
import RxTest
import XCTest

final class ConnectableObservableTests: RxLeakCheckingTestCase {
    func testPublishDeliversOnlyWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.publish()
        let res = scheduler.sharingObserver(of: ys, subscribedAt: 100, disposedAt: 1000)
        scheduler.sharingConnect(ys, at: 215, disconnectAt: 235)
        scheduler.start()
        XCTAssertEqual(res.events, [.next(220, 2), .next(230, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(215, 235)])
    }

    func testConnectTwiceReturnsTheSameConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.publish()
        let res = scheduler.sharingObserver(of: ys, subscribedAt: 100, disposedAt: 1000)
        var first: Disposable?
        scheduler.scheduleAt(205) { first = ys.connect() }
        scheduler.scheduleAt(225) {
            let second = ys.connect()
            XCTAssertTrue((first as AnyObject) === (second as AnyObject))
        }
        scheduler.scheduleAt(235) { first?.dispose() }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 235)])
    }

    /// As in RxSwift: `publish()` makes a subject per connection, so a subscriber of an ended
    /// connection is not fed by the next one, while a new subscriber is.
    func testPublishReconnectsWithAFreshSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.publish()
        let early = scheduler.sharingObserver(of: ys, subscribedAt: 100, disposedAt: 1000)
        scheduler.sharingConnect(ys, at: 215, disconnectAt: 225)
        let late = scheduler.sharingObserver(of: ys, subscribedAt: 235, disposedAt: 1000)
        scheduler.sharingConnect(ys, at: 245, disconnectAt: 1000)
        scheduler.start()
        XCTAssertEqual(early.events, [.next(220, 2)])
        XCTAssertEqual(late.events, [.next(250, 5), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(215, 225), Subscription(245, 260)])
    }

    func testMulticastThroughOneSubjectKeepsItAcrossConnections() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.multicast(PublishSubject<Int>())
        let res = scheduler.sharingObserver(of: ys, subscribedAt: 100, disposedAt: 1000)
        scheduler.sharingConnect(ys, at: 215, disconnectAt: 235)
        scheduler.sharingConnect(ys, at: 245, disconnectAt: 1000)
        scheduler.start()
        XCTAssertEqual(res.events, [.next(220, 2), .next(230, 3), .next(250, 5), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(215, 235), Subscription(245, 260)])
    }

    func testMulticastSubjectErrorReachesLateSubscribersWithTheBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
        let ys = xs.multicast(ReplaySubject<Int>.create(bufferSize: 1))
        let early = scheduler.sharingObserver(of: ys, subscribedAt: 100, disposedAt: 1000)
        let late = scheduler.sharingObserver(of: ys, subscribedAt: 300, disposedAt: 1000)
        scheduler.sharingConnect(ys, at: 200, disconnectAt: 1000)
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .error(230, testError)])
        XCTAssertEqual(late.events, [.next(300, 2), .error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testReplayBuffersForLateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.replay(2)
        scheduler.sharingConnect(ys, at: 200, disconnectAt: 1000)
        let late = scheduler.sharingObserver(of: ys, subscribedAt: 235, disposedAt: 1000)
        let afterEnd = scheduler.sharingObserver(of: ys, subscribedAt: 270, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(
            late.events, [.next(235, 2), .next(235, 3), .next(240, 4), .next(250, 5), .completed(260)])
        // The connection ended with the source, and its subject with it (RxSwift 5+).
        XCTAssertEqual(afterEnd.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testReplayAllReplaysEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.replayAll()
        scheduler.sharingConnect(ys, at: 200, disconnectAt: 245)
        let late = scheduler.sharingObserver(of: ys, subscribedAt: 235, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(late.events, [.next(235, 1), .next(235, 2), .next(235, 3), .next(240, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
    }

    func testNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(220)])
        let ns = never.publish()
        let es = empty.publish()
        let neverRes = scheduler.sharingObserver(of: ns, subscribedAt: 100, disposedAt: 1000)
        let emptyRes = scheduler.sharingObserver(of: es, subscribedAt: 100, disposedAt: 1000)
        scheduler.sharingConnect(ns, at: 200, disconnectAt: 300)
        scheduler.sharingConnect(es, at: 200, disconnectAt: 300)
        scheduler.start()
        XCTAssertEqual(neverRes.events, [])
        XCTAssertEqual(emptyRes.events, [.completed(220)])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(empty.subscriptions, [Subscription(200, 220)])
    }

    func testSubscriberDisposingFromOnNextDoesNotDisturbOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.publish()
        let other = scheduler.sharingObserver(of: ys, subscribedAt: 100, disposedAt: 1000)
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(100) {
            subscription = ys.subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        }
        scheduler.sharingConnect(ys, at: 200, disconnectAt: 1000)
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertEqual(
            other.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(260)])
    }
}
