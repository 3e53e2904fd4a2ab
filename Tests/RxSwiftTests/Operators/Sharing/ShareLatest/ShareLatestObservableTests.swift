import Dispatch
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// `share(replay: 0 or 1, scope: .whileConnected)` has a producer of its own (`ShareLatestObservable`,
/// the sharing of every Driver and Signal stage); these are the cases its design has to get right
/// beyond the general sharing tests: the replay made outside the lock, late and re-entrant
/// subscribers, and releasing replaced elements after unlocking.
final class ShareLatestObservableTests: RxLeakCheckingTestCase {
    func testLateSubscriberGetsTheLatestElementThenTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        let shared = xs.share(replay: 1)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(early)) }
        scheduler.scheduleAt(230) { subscriptions.append(shared.subscribe(late)) }
        scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(late.events, [.next(230, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testWithoutReplayALateSubscriberGetsOnlyLaterElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        let shared = xs.share()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(early)) }
        scheduler.scheduleAt(230) { subscriptions.append(shared.subscribe(late)) }
        scheduler.scheduleAt(260) { subscriptions[0].dispose() }
        scheduler.scheduleAt(270) { subscriptions[1].dispose() }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(240, 3)])
        XCTAssertEqual(late.events, [.next(240, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 270)])
    }

    /// The last subscriber leaving drops the latest element: the next connection starts empty.
    func testReconnectingStartsWithoutTheOldElement() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var first: [Int] = []
        shared.subscribe(onNext: { first.append($0) }).dispose()
        let subscription = shared.subscribe(onNext: { first.append($0) })
        subject.onNext(1)
        subscription.dispose()
        var second: [Int] = []
        let again = shared.subscribe(onNext: { second.append($0) })
        subject.onNext(2)
        again.dispose()
        XCTAssertEqual(first, [1])
        XCTAssertEqual(second, [2])
    }

    /// Subscribing from an observer's `onNext` (on the delivering thread): the new subscriber gets the
    /// element being delivered, once, then what follows; nothing deadlocks.
    func testSubscribingFromOnNextReplaysTheCurrentElement() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var inner: [Int] = []
        var innerSubscription: Disposable?
        let outer = shared.subscribe(onNext: { element in
            if element == 2 { innerSubscription = shared.subscribe(onNext: { inner.append($0) }) }
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(inner, [2, 3])
        outer.dispose()
        innerSubscription?.dispose()
    }

    /// A replaced element is released after the lock is let go: its deinitializer may use the share.
    func testReplacedElementIsReleasedOutsideTheLock() {
        let subject = PublishSubject<ReleaseTrackingPayload>()
        let shared = subject.share(replay: 1)
        let released = Mutex<[Int]>([])
        let subscription = shared.subscribe()
        subject.onNext(
            ReleaseTrackingPayload(id: 1) {
                // Re-enters the share from the deinitializer: deadlocks if called under its lock.
                shared.subscribe().dispose()
                released.withAnnotatedLock { $0.append(1) }
            })
        subject.onNext(ReleaseTrackingPayload(id: 2) { released.withAnnotatedLock { $0.append(2) } })
        XCTAssertEqual(released.withAnnotatedLock { $0 }, [1])
        subscription.dispose()
        XCTAssertEqual(released.withAnnotatedLock { $0 }, [1, 2])
    }

    /// Disposing a subscriber while it is catching up (from its replayed element's handler) stops it
    /// there and lets the connection go when it was the last.
    func testDisposingWhileCatchingUp() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        let first = shared.subscribe()
        subject.onNext(1)
        var received: [Int] = []
        let late = SingleAssignmentDisposable()
        late.setDisposable(
            shared.subscribe(onNext: {
                received.append($0)
                late.dispose()
            }))
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertTrue(subject.hasObservers)
        first.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    /// Subscribers join while another thread emits 0, 1, 2, …: each sees a run of consecutive
    /// elements with no gap and no repeat, from the one replayed to it — the replay is made on the
    /// subscribing thread, outside the lock, and must not let a concurrent element slip past or ahead.
    func testConcurrentSubscribersSeeNoGapAfterTheirReplay() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        let keepAlive = shared.subscribe()
        let subscribers = 8
        let elements = 20_000
        let runs = (0..<subscribers).map { _ in ReceivedRun() }
        let started = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            started.signal()
            for element in 0..<elements { subject.onNext(element) }
        }
        started.wait()
        let subscriptions = CompositeDisposable()
        DispatchQueue.concurrentPerform(iterations: subscribers) { index in
            _ = subscriptions.insert(
                shared.subscribe(onNext: { element in runs[index].elements.withAnnotatedLock { $0.append(element) } }))
        }
        group.wait()
        subscriptions.dispose()
        keepAlive.dispose()
        for run in runs {
            let received = run.elements.withAnnotatedLock { $0 }
            guard let first = received.first else { continue }
            XCTAssertEqual(received, Array(first..<(first + received.count)))
            XCTAssertEqual(received.last, elements - 1)
        }
    }

    /// Once every subscriber has gone (or the source ended), the share holds nothing that counts as
    /// a live resource, while it is kept, as RxSwift's share: what a server that keeps a share per
    /// topic reads as "no subscription left". Debug builds count.
    func testAShareWhoseSubscribersAllLeftCountsNoLiveResource() throws {
        #if !DEBUG
            throw XCTSkip("Resources.total counts in debug builds only")
        #else
            for replay in [0, 1] {
                let source = PublishSubject<Int>()
                let shared = source.share(replay: replay)
                let start = Resources.total
                // The handles are let go of too: a disposed handle that is kept counts, in RxSwift as here.
                do {
                    let subscriptions = (0..<3).map { _ in shared.subscribe(onNext: { _ in }) }
                    source.onNext(1)
                    XCTAssertGreaterThan(Resources.total, start)
                    subscriptions.forEach { $0.dispose() }
                }
                XCTAssertEqual(Resources.total, start, "replay \(replay), after the last subscriber left")
                // A second connection, leaving.
                shared.subscribe(onNext: { _ in }).dispose()
                XCTAssertEqual(Resources.total, start, "replay \(replay), after a second connection")
                let ending = PublishSubject<Int>()
                let endingShare = ending.share(replay: replay)
                let endingStart = Resources.total
                _ = endingShare.subscribe(onNext: { _ in })
                ending.onCompleted()
                XCTAssertEqual(Resources.total, endingStart, "replay \(replay), after the source completed")
            }
        #endif
    }
}

/// What one subscriber received.
private final class ReceivedRun: Sendable {
    let elements = Mutex<[Int]>([])
}
