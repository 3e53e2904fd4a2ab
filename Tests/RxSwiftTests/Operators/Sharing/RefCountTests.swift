import RxSwift
import RxTest
import XCTest

final class RefCountTests: RxLeakCheckingTestCase {
    func testConnectsOnFirstAndDisconnectsOnLastSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let ys = xs.publish().refCount()
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 205, disposedAt: 225)
        let b = scheduler.sharingObserver(of: ys, subscribedAt: 215, disposedAt: 235)
        let c = scheduler.sharingObserver(of: ys, subscribedAt: 245, disposedAt: 255)
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(b.events, [.next(220, 2), .next(230, 3)])
        XCTAssertEqual(c.events, [.next(250, 5)])
        XCTAssertEqual(xs.subscriptions, [Subscription(205, 235), Subscription(245, 255)])
    }

    func testTerminationEndsTheConnectionAndTheNextSubscriberReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let ys = xs.publish().refCount()
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
        let b = scheduler.sharingObserver(of: ys, subscribedAt: 240, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(b.events, [.next(250, 1), .next(260, 2), .completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(240, 270)])
    }

    func testUpstreamErrorReachesEverySubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let ys = xs.publish().refCount()
        let a = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
        let b = scheduler.sharingObserver(of: ys, subscribedAt: 205, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(b.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let empty = scheduler.createHotObservable([Recorded<Event<Int>>.completed(220)])
        let neverRes = scheduler.start(disposed: 300) { never.publish().refCount() }
        XCTAssertEqual(neverRes.events, [])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 300)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let empty2 = scheduler2.createHotObservable([Recorded<Event<Int>>.completed(220)])
        let emptyRes = scheduler2.start { empty2.publish().refCount() }
        XCTAssertEqual(emptyRes.events, [.completed(220)])
        XCTAssertEqual(empty2.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(empty.subscriptions, [])
    }

    /// A synchronous source that an early subscriber cuts short while it is still being connected:
    /// the disconnect waits for the connect to return, then the source is disposed.
    func testDisposalDuringASynchronousConnectDisconnects() {
        var subscribed = 0
        var disposed = 0
        let source = Observable<Int>.create { observer in
            subscribed += 1
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create { disposed += 1 }
        }
        var received: [Event<Int>] = []
        let subscription = source.publish().refCount().take(1).subscribe { received.append($0) }
        XCTAssertEqual(received, [.next(1), .completed])
        XCTAssertEqual(subscribed, 1)
        XCTAssertEqual(disposed, 1)
        subscription.dispose()
        XCTAssertEqual(disposed, 1)
    }
}
