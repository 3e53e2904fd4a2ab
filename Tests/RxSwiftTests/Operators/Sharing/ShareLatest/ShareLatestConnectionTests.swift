import Dispatch
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The subscriber that connects a `share(replay: 0 or 1, scope: .whileConnected)` has no sink of its
/// own: the connection (`ShareLatestConnection`) is its disposable and sits in the first observer slot. These tests go after
/// that: double disposal, the first leaving while others stay, new subscribers joining after it left,
/// re-entrant disposal and subscription, what is kept alive, and disposal racing delivery.
final class ShareLatestConnectionTests: RxLeakCheckingTestCase {

    // MARK: - Virtual time

    /// The connecting subscriber leaves while another stays; a third joins later and gets the replay,
    /// then everything that follows; the connecting subscriber hears nothing after leaving.
    func testConnectingSubscriberLeavesOthersStayAndANewOneJoins() {
        for replay in [0, 1] {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = sharingHotSource(scheduler)
            let shared = xs.share(replay: replay)
            let a = scheduler.sharingObserver(of: shared, subscribedAt: 200, disposedAt: 225)
            let b = scheduler.sharingObserver(of: shared, subscribedAt: 215, disposedAt: 1000)
            let c = scheduler.sharingObserver(of: shared, subscribedAt: 235, disposedAt: 1000)
            scheduler.start()
            XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2)], "replay \(replay)")
            XCTAssertEqual(
                b.events,
                (replay == 1 ? [.next(215, 1)] : []) + [
                    .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .completed(260),
                ], "replay \(replay)")
            XCTAssertEqual(
                c.events,
                (replay == 1 ? [.next(235, 3)] : []) + [.next(240, 4), .next(250, 5), .completed(260)],
                "replay \(replay)")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)], "replay \(replay)")
        }
    }

    /// Disposing the connecting subscriber's handle twice (and again after the others left and after
    /// a new connection started) touches neither the old connection's other subscribers nor the new
    /// connection.
    func testDoubleDisposeOfTheConnectingSubscriber() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sharingHotSource(scheduler)
        let shared = xs.share(replay: 1)
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        let c = scheduler.createObserver(Int.self)
        var aSubscription: Disposable?
        var bSubscription: Disposable?
        var cSubscription: Disposable?
        scheduler.scheduleAt(200) { aSubscription = shared.subscribe(a) }
        scheduler.scheduleAt(205) { bSubscription = shared.subscribe(b) }
        scheduler.scheduleAt(215) { aSubscription?.dispose() }
        scheduler.scheduleAt(216) { aSubscription?.dispose() }
        scheduler.scheduleAt(225) { bSubscription?.dispose() }
        scheduler.scheduleAt(226) { aSubscription?.dispose() }
        scheduler.scheduleAt(232) { cSubscription = shared.subscribe(c) }
        scheduler.scheduleAt(235) { aSubscription?.dispose() }
        scheduler.scheduleAt(236) { bSubscription?.dispose() }
        scheduler.scheduleAt(245) { cSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1)])
        XCTAssertEqual(b.events, [.next(210, 1), .next(220, 2)])
        // A new connection: no replay of the old one's element.
        XCTAssertEqual(c.events, [.next(240, 4)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225), Subscription(232, 245)])
    }

    /// The same with the internal handle itself (the connection): `dispose()` twice, with another
    /// subscriber staying, leaves that subscriber connected.
    func testDoubleDisposeOfTheConnectionHandleKeepsTheOthers() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var first: [Int] = []
        var second: [Int] = []
        let a = shared.subscribe(onNext: { first.append($0) })
        let b = shared.subscribe(onNext: { second.append($0) })
        subject.onNext(1)
        a.dispose()
        a.dispose()
        subject.onNext(2)
        XCTAssertTrue(subject.hasObservers)
        a.dispose()
        subject.onNext(3)
        b.dispose()
        XCTAssertFalse(subject.hasObservers)
        a.dispose()
        XCTAssertEqual(first, [1])
        XCTAssertEqual(second, [1, 2, 3])
    }

    /// A subscriber that resubscribes from its terminal handler starts a new connection (the old one
    /// was dropped before its observers heard of the end), for the connecting subscriber and for a
    /// joined one; the source is subscribed anew each time.
    func testResubscribingFromTheTerminalHandlerStartsANewConnection() {
        var subscriptions = 0
        let subjects = [PublishSubject<Int>(), PublishSubject<Int>(), PublishSubject<Int>()]
        let source = Observable<Int>.deferred {
            defer { subscriptions += 1 }
            return subjects[subscriptions].asObservable()
        }
        let shared = source.share(replay: 1)
        var received: [String] = []
        var resubscribed: [Disposable] = []
        let first = shared.subscribe(
            onNext: { received.append("a\($0)") },
            onCompleted: {
                received.append("a|")
                resubscribed.append(shared.subscribe(onNext: { received.append("a'\($0)") }))
            })
        let second = shared.subscribe(
            onNext: { received.append("b\($0)") },
            onCompleted: {
                received.append("b|")
                resubscribed.append(shared.subscribe(onNext: { received.append("b'\($0)") }))
            })
        subjects[0].onNext(1)
        subjects[0].onCompleted()
        XCTAssertEqual(subscriptions, 2)
        XCTAssertFalse(subjects[0].hasObservers)
        XCTAssertTrue(subjects[1].hasObservers)
        subjects[1].onNext(2)
        XCTAssertEqual(received, ["a1", "b1", "a|", "b|", "a'2", "b'2"])
        first.dispose()
        second.dispose()
        XCTAssertTrue(subjects[1].hasObservers)
        resubscribed.forEach { $0.dispose() }
        XCTAssertFalse(subjects[1].hasObservers)
        XCTAssertEqual(subscriptions, 2)
    }

    /// The connecting subscriber disposes itself from `onNext`: alone, it disconnects at once; with
    /// another subscriber, that one receives the same element and what follows.
    func testConnectingSubscriberDisposingFromOnNext() {
        for withOther in [false, true] {
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: 1)
            var first: [Int] = []
            var second: [Int] = []
            let a = SingleAssignmentDisposable()
            a.setDisposable(
                shared.subscribe(onNext: {
                    first.append($0)
                    if $0 == 2 { a.dispose() }
                }))
            let b = withOther ? shared.subscribe(onNext: { second.append($0) }) : Disposables.create()
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertEqual(subject.hasObservers, withOther)
            subject.onNext(3)
            b.dispose()
            XCTAssertFalse(subject.hasObservers)
            XCTAssertEqual(first, [1, 2])
            XCTAssertEqual(second, withOther ? [1, 2, 3] : [])
        }
    }

    /// The connecting subscriber is disposed from a later subscriber's `onNext` (after it has already
    /// received that element): it receives nothing more, the other goes on.
    func testConnectingSubscriberDisposedByAnotherDuringDelivery() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var first: [Int] = []
        var second: [Int] = []
        let a = shared.subscribe(onNext: { first.append($0) }, onCompleted: { first.append(-1) })
        let b = shared.subscribe(
            onNext: {
                second.append($0)
                if $0 == 2 { a.dispose() }
            }, onCompleted: { second.append(-1) })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subject.onCompleted()
        b.dispose()
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(second, [1, 2, 3, -1])
    }

    /// The connecting subscriber leaves while a late subscriber is still catching up (from the
    /// replayed element's handler): the late one then takes the first slot, and receives everything
    /// that follows and the terminal event.
    func testLateSubscriberTakesTheFirstSlotAfterTheConnectingOneLeft() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        var first: [Int] = []
        var late: [Int] = []
        let a = shared.subscribe(onNext: { first.append($0) })
        subject.onNext(1)
        var lateCompleted = false
        let b = shared.subscribe(
            onNext: { element in
                late.append(element)
                if element == 1 { a.dispose() }
            }, onCompleted: { lateCompleted = true })
        XCTAssertTrue(subject.hasObservers)
        subject.onNext(2)
        var third: [Int] = []
        let c = shared.subscribe(onNext: { third.append($0) })
        subject.onNext(3)
        subject.onCompleted()
        b.dispose()
        c.dispose()
        XCTAssertEqual(first, [1])
        XCTAssertEqual(late, [1, 2, 3])
        XCTAssertTrue(lateCompleted)
        XCTAssertEqual(third, [2, 3])
    }

    /// Errors reach the connecting subscriber and the joined ones once; a subscriber arriving after
    /// the error resubscribes the source (RxSwift's `ShareReplay1WhileConnected`).
    func testErrorReachesEveryoneAndALaterSubscriberReconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError)])
        let shared = xs.share(replay: 1)
        let a = scheduler.sharingObserver(of: shared, subscribedAt: 200, disposedAt: 1000)
        let b = scheduler.sharingObserver(of: shared, subscribedAt: 215, disposedAt: 1000)
        let c = scheduler.sharingObserver(of: shared, subscribedAt: 240, disposedAt: 1000)
        scheduler.start()
        XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .error(230, testError)])
        XCTAssertEqual(b.events, [.next(215, 1), .next(220, 2), .error(230, testError)])
        XCTAssertEqual(c.events, [.next(250, 1), .next(260, 2), .error(270, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(240, 270)])
    }

    /// A source that completes while it is being subscribed (for the connecting subscriber): the
    /// handle returned then is inert, and the next subscriber connects anew.
    func testSynchronouslyCompletingSource() {
        var subscriptions = 0
        let source = Observable<Int>.deferred {
            subscriptions += 1
            return Observable.of(1, 2)
        }
        let shared = source.share(replay: 1)
        var received: [String] = []
        let a = shared.subscribe(onNext: { received.append("a\($0)") }, onCompleted: { received.append("a|") })
        let b = shared.subscribe(onNext: { received.append("b\($0)") }, onCompleted: { received.append("b|") })
        a.dispose()
        a.dispose()
        b.dispose()
        XCTAssertEqual(received, ["a1", "a2", "a|", "b1", "b2", "b|"])
        XCTAssertEqual(subscriptions, 2)
    }

    /// `take(1)` after the share on a synchronous, never-ending source: the connecting subscriber's
    /// handle is disposed as soon as it is handed back, which disconnects the source.
    func testTakeOneOnSynchronousSourceDisconnects() {
        let disposed = Mutex(0)
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create { disposed.withAnnotatedLock { $0 += 1 } }
        }
        let shared = source.share(replay: 1)
        var received: [Int] = []
        var completed = false
        _ = shared.take(1).subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, [1])
        XCTAssertTrue(completed)
        XCTAssertEqual(disposed.withAnnotatedLock { $0 }, 1)
        // And again: a fresh connection, same result.
        _ = shared.take(1).subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [1, 1])
        XCTAssertEqual(disposed.withAnnotatedLock { $0 }, 2)
    }

    // MARK: - What is kept alive

    /// After the connecting subscriber leaves, its observer is not kept by the connection, although
    /// the others stay and its handle is still held. (Before the change its share sink kept it while
    /// the handle was held.)
    func testConnectingSubscriberIsReleasedWhenItLeaves() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        weak var weakFirst: CountingObserver?
        weak var weakSecond: CountingObserver?
        var firstHandle: Disposable?
        var secondHandle: Disposable?
        do {
            let firstObserver = CountingObserver()
            let secondObserver = CountingObserver()
            weakFirst = firstObserver
            weakSecond = secondObserver
            firstHandle = shared.subscribe(sink: ObserverTypeSink(firstObserver))
            secondHandle = shared.subscribe(sink: ObserverTypeSink(secondObserver))
        }
        subject.onNext(1)
        firstHandle?.dispose()
        XCTAssertNil(weakFirst, "the connecting subscriber's observer is kept after it left")
        XCTAssertNotNil(weakSecond)
        secondHandle?.dispose()
        XCTAssertNotNil(firstHandle)
        firstHandle = nil
        secondHandle = nil
    }

    /// The connecting subscriber's observer is released when the source terminates, even while its
    /// handle is still held (nothing but the handle is kept).
    func testConnectingSubscriberIsReleasedWhenTheConnectionEnds() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        weak var weakFirst: CountingObserver?
        var firstHandle: Disposable?
        do {
            let firstObserver = CountingObserver()
            weakFirst = firstObserver
            firstHandle = shared.subscribe(sink: ObserverTypeSink(firstObserver))
        }
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertNil(weakFirst, "the connecting subscriber's observer is kept after the connection ended")
        XCTAssertNotNil(firstHandle)
        firstHandle = nil
    }

    /// The connecting subscriber, never disposed, is released when the source terminates (the
    /// connection no longer holds itself). The share keeps its latest connection, ended, until the
    /// next subscriber replaces it or the share goes (the connection does not refer back to the
    /// share: see `ShareLatestObservable.connection`); ended, it holds neither its observers nor
    /// its latest element.
    func testConnectionDoesNotHoldItselfAfterTermination() {
        final class Payload {}
        let subject = PublishSubject<Payload>()
        weak var weakConnection: AnyObject?
        weak var weakPayload: Payload?
        weak var weakObserver: RecordingSink<Payload>?
        var shared: Observable<Payload>? = subject.share(replay: 1)
        do {
            let observer = RecordingSink<Payload>()
            weakObserver = observer
            let handle = shared!.subscribe(sink: observer)
            weakConnection = handle as AnyObject
            let payload = Payload()
            weakPayload = payload
            subject.onNext(payload)
            subject.onCompleted()
        }
        XCTAssertNil(weakPayload)
        XCTAssertNil(weakObserver)
        shared = nil
        XCTAssertNil(weakConnection)
    }

    /// The connection goes away once its connecting subscriber left, even if that handle was never
    /// disposed twice or the subscriber never rejoined (and the next subscriber starts another).
    func testConnectionIsReleasedAfterTheLastLeaves() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        weak var weakConnection: AnyObject?
        do {
            let handle = shared.subscribe(sink: RecordingSink<Int>())
            let other = shared.subscribe(sink: RecordingSink<Int>())
            weakConnection = handle as AnyObject
            subject.onNext(1)
            handle.dispose()
            XCTAssertNotNil(weakConnection)
            other.dispose()
        }
        XCTAssertNotNil(weakConnection, "kept, ended, until the next subscriber")
        let next = shared.subscribe(sink: RecordingSink<Int>())
        XCTAssertNil(weakConnection)
        next.dispose()
    }

    // MARK: - Stress

    /// The connecting subscriber disposes (twice, from two threads) while another thread emits
    /// elements and then completes, and others subscribe and leave: every subscriber sees a
    /// well-formed sequence, nothing reaches a subscriber on its disposing thread after `dispose()`
    /// returned, the source is subscribed once per round and disposed once.
    func testConnectingSubscriberDisposingWhileDeliveryRuns() {
        for replay in [0, 1] {
            for round in 0..<300 {
                let feed = PublishSubject<Int>()
                let counters = Mutex((subscribed: 0, disposed: 0))
                let source = Observable<Int>.create { observer in
                    counters.withAnnotatedLock { $0.subscribed += 1 }
                    let subscription = feed.subscribe(observer)
                    return Disposables.create {
                        subscription.dispose()
                        counters.withAnnotatedLock { $0.disposed += 1 }
                    }
                }
                let shared = source.share(replay: replay)
                let firstRecorder = GrammarRecorder<Int>()
                let first = shared.subscribe { firstRecorder.on($0) }
                let others = (0..<3).map { _ in GrammarRecorder<Int>() }
                let otherHandles = Mutex<[Disposable]>([])
                let group = DispatchGroup()
                let go = DispatchSemaphore(value: 0)
                let completes = round % 2 == 0
                DispatchQueue.global().async(group: group) {
                    go.wait()
                    for value in 0..<200 { feed.onNext(value) }
                    if completes { feed.onCompleted() }
                }
                for index in 0..<2 {
                    DispatchQueue.global().async(group: group) {
                        go.wait()
                        if index == 0 { for _ in 0..<50 { _ = counters.withAnnotatedLock { $0 } } }
                        first.dispose()
                        firstRecorder.markDisposed()
                    }
                }
                DispatchQueue.global().async(group: group) {
                    go.wait()
                    for recorder in others {
                        let handle = shared.subscribe { recorder.on($0) }
                        otherHandles.withAnnotatedLock { $0.append(handle) }
                    }
                }
                for _ in 0..<4 { go.signal() }
                group.wait()
                otherHandles.withAnnotatedLock { $0.forEach { $0.dispose() } }
                for recorder in others { recorder.markDisposed() }
                let final = counters.withAnnotatedLock { $0 }
                XCTAssertEqual(final.disposed, final.subscribed, "replay \(replay) round \(round)")
                XCTAssertFalse(feed.hasObservers, "replay \(replay) round \(round)")
                for recorder in [firstRecorder] + others {
                    XCTAssertEqual(recorder.violations, [], "replay \(replay) round \(round)")
                    let elements = recorder.elements
                    XCTAssertTrue(
                        zip(elements, elements.dropFirst()).allSatisfy { $0 + 1 == $1 },
                        "replay \(replay) round \(round): \(elements)")
                }
            }
        }
    }

    /// Two threads dispose the connecting subscriber's handle at the same time as the source
    /// completes on a third: the source's subscription is disposed exactly once, the terminal event
    /// reaches the other subscriber exactly once and the connecting one at most once.
    func testConcurrentDoubleDisposeRacingCompletion() {
        for round in 0..<1000 {
            let feed = PublishSubject<Int>()
            let disposals = Atomic<Int>(0)
            let source = Observable<Int>.create { observer in
                let subscription = feed.subscribe(observer)
                return Disposables.create {
                    subscription.dispose()
                    disposals.add(1, ordering: .relaxed)
                }
            }
            let shared = source.share(replay: 1)
            let firstRecorder = GrammarRecorder<Int>()
            let otherRecorder = GrammarRecorder<Int>()
            let first = shared.subscribe { firstRecorder.on($0) }
            let other = shared.subscribe { otherRecorder.on($0) }
            feed.onNext(1)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 2 {
                    feed.onCompleted()
                } else {
                    // Not marked: a second `dispose()` may return while the first one is still
                    // under way on the other thread (true of every subscription), so "nothing on
                    // this thread after dispose returned" does not hold for the loser here.
                    first.dispose()
                }
            }
            other.dispose()
            XCTAssertEqual(disposals.load(ordering: .relaxed), 1, "round \(round)")
            XCTAssertEqual(otherRecorder.terminals, 1, "round \(round)")
            XCTAssertLessThanOrEqual(firstRecorder.terminals, 1, "round \(round)")
            XCTAssertEqual(firstRecorder.violations, [], "round \(round)")
            XCTAssertEqual(otherRecorder.violations, [], "round \(round)")
        }
    }
}

/// Records events as strings (internal sink).
private final class RecordingSink<Element>: Sink<Element>, @unchecked Sendable {
    private let state = Mutex<[String]>([])
    var events: [String] { state.withAnnotatedLock { $0 } }

    override func next(_ element: Element) {
        state.withAnnotatedLock { $0.append("\(element)") }
    }

    override func terminate(_ termination: Termination) {
        state.withAnnotatedLock { $0.append("\(termination)") }
    }
}

private final class CountingObserver: ObserverType, @unchecked Sendable {
    private let count = Atomic<Int>(0)

    func on(_ event: Event<Int>) {
        count.add(1, ordering: .relaxed)
    }
}
