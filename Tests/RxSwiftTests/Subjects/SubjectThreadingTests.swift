import Dispatch
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The threading guarantees of "Contracts" (a)–(d): who delivers a subject's events, and when.
final class SubjectThreadingTests: XCTestCase {
    // MARK: - A subscriber joining while another thread sends: no element lost (deterministic)

    func testBehaviorSubscriberGetsAnElementSentWhileItReceivesItsReplay() {
        let subject = BehaviorSubject(value: 0)
        let received = Mutex<[Int]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            // Another thread sends while the new subscriber is registered but has not had its replay.
            DispatchQueue.global().sync { subject.onNext(1) }
        }) {
            subject.subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
        }
        subject.onNext(2)
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [0, 1, 2])
        subscription.dispose()
    }

    func testReplaySubscriberGetsAnElementSentWhileItReceivesItsReplay() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(0)
        let received = Mutex<[Int]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            DispatchQueue.global().sync { subject.onNext(1) }
        }) {
            subject.subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
        }
        subject.onNext(2)
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [0, 1, 2])
        subscription.dispose()
    }

    func testCompletionSentWhileASubscriberReceivesItsReplayReachesIt() {
        let subject = BehaviorSubject(value: 0)
        let received = Mutex<[String]>([])
        _ = SubjectTestHooks.whileCatchingUp({
            DispatchQueue.global().sync {
                subject.onNext(1)
                subject.onCompleted()
            }
        }) {
            subject.subscribe { event in received.withAnnotatedLock { $0.append("\(event)") } }
        }
        XCTAssertEqual(received.withAnnotatedLock { $0 }, ["next(0)", "next(1)", "completed"])
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: - (a) a lone sender delivers on its own thread before returning

    func testLoneSenderDeliversOnItsOwnThreadWhileAnotherThreadSubscribesAndDisposes() {
        let subject = PublishSubject<Int>()
        let sender = ThreadMarker()
        let deliveredElsewhere = Atomic<Int>(0)
        let delivered = Atomic<Int>(0)
        let subscription = subject.subscribe(onNext: { _ in
            if !sender.isCurrent { deliveredElsewhere.add(1, ordering: .relaxed) }
            delivered.add(1, ordering: .relaxed)
        })
        let stop = Atomic<Bool>(false)
        let lateBeforeReturn = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                sender.mark()
                for element in 0..<20_000 {
                    subject.onNext(element)
                    // Delivered before `onNext` returned.
                    if delivered.load(ordering: .relaxed) != element + 1 { lateBeforeReturn.add(1, ordering: .relaxed) }
                }
                stop.store(true, ordering: .releasing)
            } else {
                while !stop.load(ordering: .acquiring) {
                    subject.subscribe(onNext: { _ in }).dispose()
                }
            }
        }
        XCTAssertEqual(deliveredElsewhere.load(ordering: .relaxed), 0)
        XCTAssertEqual(lateBeforeReturn.load(ordering: .relaxed), 0)
        XCTAssertEqual(delivered.load(ordering: .relaxed), 20_000)
        subscription.dispose()
    }

    // MARK: - (b) subscribe delivers the replay on the subscribing thread, then joins without a gap

    func testBehaviorSubscribeUnderContentionDeliversTheCurrentValueBeforeReturningAndNoGapAfter() {
        let subject = BehaviorSubject(value: -1)
        let stop = Atomic<Bool>(false)
        let failures = Mutex<[String]>([])
        let subscriptions = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            if index == 0 {
                for element in 0..<30_000 { subject.onNext(element) }
                stop.store(true, ordering: .releasing)
                return
            }
            while !stop.load(ordering: .acquiring) {
                let subscriber = ThreadMarker()
                subscriber.mark()
                let received = Mutex<[Int]>([])
                let replayedHere = Atomic<Bool>(false)
                let subscription = subject.subscribe(onNext: { value in
                    if received.withAnnotatedLock({ $0.isEmpty }) && subscriber.isCurrent {
                        replayedHere.store(true, ordering: .relaxed)
                    }
                    received.withAnnotatedLock { $0.append(value) }
                })
                let beforeReturn = received.withAnnotatedLock { $0.count }
                subscription.dispose()
                subscriptions.add(1, ordering: .relaxed)
                let values = received.withAnnotatedLock { $0 }
                if beforeReturn == 0 || !replayedHere.load(ordering: .relaxed) {
                    failures.withAnnotatedLock { $0.append("no current value on the subscribing thread") }
                }
                for (earlier, later) in zip(values, values.dropFirst()) where later != earlier + 1 {
                    failures.withAnnotatedLock { $0.append("gap or duplicate: \(earlier) then \(later)") }
                }
            }
        }
        XCTAssertGreaterThan(subscriptions.load(ordering: .relaxed), 0)
        XCTAssertEqual(failures.withAnnotatedLock { Array($0.prefix(5)) }, [])
    }

    // MARK: - (c) subscribe and dispose never deliver to other observers

    func testSubscribingAndDisposingThreadsNeverDeliverOtherObserversElements() {
        let subject = BehaviorSubject(value: 0)
        let sender = ThreadMarker()
        let foreign = Atomic<Int>(0)
        let subscription = subject.subscribe(onNext: { _ in
            if !sender.isCurrent { foreign.add(1, ordering: .relaxed) }
        })
        let stop = Atomic<Bool>(false)
        let cycles = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            if index == 0 {
                sender.mark()
                for element in 1...30_000 { subject.onNext(element) }
                stop.store(true, ordering: .releasing)
                return
            }
            while !stop.load(ordering: .acquiring) {
                // Its own observer may get what arrives while it catches up; nobody else gets anything.
                subject.subscribe(onNext: { _ in }).dispose()
                cycles.add(1, ordering: .relaxed)
            }
        }
        // Only the first subscription's current value was delivered off the sender's thread (on this
        // one, when it subscribed).
        XCTAssertEqual(foreign.load(ordering: .relaxed), 1)
        XCTAssertGreaterThan(cycles.load(ordering: .relaxed), 0)
        subscription.dispose()
    }

    // MARK: - (d) racing senders stay serialized

    func testRacingSendersAreSerializedAndNothingIsLost() {
        let subject = PublishSubject<Int>()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let total = Atomic<Int>(0)
        let subscription = subject.subscribe(onNext: { _ in
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
            total.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .acquiringAndReleasing)
        })
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for element in 0..<10_000 { subject.onNext(element) }
        }
        XCTAssertEqual(overlaps.load(ordering: .relaxed), 0)
        XCTAssertEqual(total.load(ordering: .relaxed), 40_000)
        subscription.dispose()
    }
}

/// Remembers one thread, to ask later whether code runs on it.
private final class ThreadMarker: Sendable {
    private let thread = Atomic<UInt>(0)

    func mark() {
        thread.store(Self.current, ordering: .releasing)
    }

    var isCurrent: Bool { thread.load(ordering: .acquiring) == Self.current }

    private static var current: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}
