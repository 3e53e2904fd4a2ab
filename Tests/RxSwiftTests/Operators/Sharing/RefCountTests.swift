import Dispatch
import RxTest
import Synchronization
import XCTest

@testable import RxSwift

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

    /// A subscriber arriving after the source completed connects again, as in RxSwift: a new
    /// subject and a new subscription to the source. A hot source that does not repeat its
    /// completion to late subscribers (a recorded hot observable) gives it nothing.
    func testALateSubscriberOfACompletedPublishReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250), .next(310, 2)])
        let ys = xs.publish().refCount()
        let early = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
        let late = scheduler.sharingObserver(of: ys, subscribedAt: 300, disposedAt: 400)
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(late.events, [.next(310, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(300, 400)])
    }

    /// The same with a subject as the source: the reconnection subscribes to the completed subject,
    /// which completes the late subscriber at once. `replay(1)` replays nothing from the ended
    /// connection: its subject is a fresh one.
    func testALateSubscriberOfACompletedSubjectIsCompletedByTheReconnection() {
        for share in [{ (source: Observable<Int>) in source.publish().refCount() }, { $0.replay(1).refCount() }] {
            let scheduler = TestScheduler(initialClock: 0)
            let source = PublishSubject<Int>()
            scheduler.scheduleAt(210) { source.onNext(1) }
            scheduler.scheduleAt(250) { source.onCompleted() }
            let ys = share(source.asObservable())
            let early = scheduler.sharingObserver(of: ys, subscribedAt: 200, disposedAt: 1000)
            let late = scheduler.sharingObserver(of: ys, subscribedAt: 300, disposedAt: 1000)
            scheduler.start()
            XCTAssertEqual(early.events, [.next(210, 1), .completed(250)])
            XCTAssertEqual(late.events, [.completed(300)])
            XCTAssertFalse(source.hasObservers)
        }
    }

    /// A subscriber that the connectable's subject ends while it subscribes (a terminated subject)
    /// does not connect, as in RxSwift.
    func testASubscriberEndedWhileSubscribingDoesNotConnect() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        let subject = PublishSubject<Int>()
        subject.onCompleted()
        let res = scheduler.start { xs.multicast(subject).refCount() }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    /// A subscriber arriving after the last one left gets the next connection's subject, and what
    /// the source sends as it is connected.
    func testASubscriberAfterTheLastLeftGetsANewConnection() {
        var subscriptions = 0
        let source = Observable<Int>.create { observer in
            subscriptions += 1
            observer.onNext(subscriptions)
            return Disposables.create()
        }
        let shared = source.replay(1).refCount()
        var first: [Int] = []
        shared.subscribe(onNext: { first.append($0) }).dispose()
        var second: [Int] = []
        let subscription = shared.subscribe(onNext: { second.append($0) })
        XCTAssertEqual(first, [1])
        XCTAssertEqual(second, [2])
        XCTAssertEqual(subscriptions, 2)
        subscription.dispose()
    }
}

// MARK: - The sender throttle

/// A connectable other than `multicast`'s (so `refCount()` is the generic ``RefCountObservable``) that
/// logs its connects and disconnects and can hold the thread performing the next disconnect.
private final class HoldingConnectable: ConnectableObservableType, @unchecked Sendable {
    typealias Element = Int
    let log = Shared<[String]>([])
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holdsNextDisconnect = Atomic<Bool>(false)

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        Observable<Int>.never().subscribe(observer)
    }

    func connect() -> Disposable {
        log.update { $0.append("connect") }
        return Disposables.create { [self] in
            log.update { $0.append("disconnect") }
            if holdsNextDisconnect.exchange(false, ordering: .relaxed) {
                holding.signal()
                release.wait()
            }
        }
    }
}

extension RefCountTests {
    /// While one thread performs a disconnect (held), another subscribes and leaves over and over:
    /// its connects and disconnects queue up to the backlog limit at once, then it waits at each
    /// (``SenderThrottle``); once the holder goes on, it performs every one, in order.
    func testConnectsAndDisconnectsQueuedBehindAHeldOneThrottleTheSenderAndKeepTheirOrder() {
        let connectable = HoldingConnectable()
        let shared = connectable.refCount()
        connectable.holdsNextDisconnect.store(true, ordering: .relaxed)
        let holderDone = DispatchSemaphore(value: 0)
        Thread {
            shared.subscribe(onNext: { _ in }).dispose()
            holderDone.signal()
        }.start()
        XCTAssertEqual(connectable.holding.wait(timeout: .now() + 5), .success, "the disconnect never ran")
        // Two operations (a connect and a disconnect) per cycle.
        let freeCycles = SenderThrottle.backlogLimit / 2
        let extraCycles = 3
        let flood = ThrottledFlood(free: freeCycles, extra: extraCycles) { _ in
            shared.subscribe(onNext: { _ in }).dispose()
        }
        connectable.release.signal()
        XCTAssertEqual(holderDone.wait(timeout: .now() + 5), .success, "the holder never finished")
        let cycles = 1 + freeCycles + extraCycles
        XCTAssertEqual(
            connectable.log.value, Array(repeating: ["connect", "disconnect"], count: cycles).flatMap { $0 })
        // Two waits per extra cycle.
        assertThrottled(flood, waits: 2 * extraCycles)
    }
}
