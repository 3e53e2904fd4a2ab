import Dispatch
import Foundation
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// The drain loops keep their backlog bounded: a thread that keeps sending while another thread
/// drains waits once the backlog is long, so the draining thread gets back to its own work and
/// memory stays bounded (``SenderThrottle``). Without it (checked with an unlimited backlog) the
/// `combineLatest`/`zip` and `merge` tests hung in 3 runs out of 3 (the first test of the kind
/// grew to 14 GB before it was stopped) and the subject test in 1 of 3; with it, all pass in 0.2 s.
final class SenderThrottleTests: RxLeakCheckingTestCase {
    /// `combineLatest` and `zip` attach their constant sources while another thread floods the first
    /// one: `subscribe` returns.
    func testSubscribingToCombiningOperatorsReturnsWhileASourceIsFlooded() {
        let flooded = PublishSubject<Int>()
        let feeder = FloodingThread { flooded.onNext($0) }
        for round in 0..<40 {
            let recorder = GrammarRecorder<Int>()
            let one = Observable.just(1)
            let two = Observable.just(2)
            let combined: Observable<Int> =
                round.isMultiple(of: 2)
                ? Observable.combineLatest(flooded, one, two) { $0 + $1 + $2 }
                : Observable.zip(flooded, one, two) { $0 + $1 + $2 }
            let subscription = combined.subscribe(recorder)
            subscription.dispose()
            assertSerialized(recorder)
        }
        feeder.stop()
        XCTAssertFalse(flooded.hasObservers)
    }

    /// `merge` takes the token for its constant sources while another thread floods the other one:
    /// `subscribe` returns, and the constant elements are delivered (by whichever thread holds the
    /// token) in order.
    func testSubscribingToMergeReturnsWhileASourceIsFlooded() {
        let flooded = PublishSubject<Int>()
        let feeder = FloodingThread { flooded.onNext($0) }
        var subscriptions: [(GrammarRecorder<Int>, Disposable)] = []
        for _ in 0..<10 {
            // Slower than the feeding thread (see the subject test).
            let recorder = GrammarRecorder<Int>(elementWork: 1)
            subscriptions.append((recorder, Observable.merge(flooded, .just(-1), .just(-2)).subscribe(recorder)))
        }
        feeder.stop()
        for (recorder, subscription) in subscriptions {
            subscription.dispose()
            assertSerialized(recorder)
            XCTAssertEqual(recorder.elements.filter { $0 < 0 }, [-1, -2])
        }
        XCTAssertFalse(flooded.hasObservers)
    }

    /// A subject's sender that also has work of its own finishes it while another thread floods the
    /// subject.
    func testASubjectSenderGetsBackToItsOwnWorkWhileAnotherThreadFloods() {
        let subject = PublishSubject<Int>()
        // A consumer slower than the feeding thread: without the throttle this thread, once it holds
        // the token, drains the other thread's elements for ever.
        let recorder = GrammarRecorder<Int>(elementWork: 1)
        let subscription = subject.subscribe(recorder)
        let feeder = FloodingThread { subject.onNext($0) }
        for value in 0..<20 { subject.onNext(-value - 1) }
        feeder.stop()
        subject.onCompleted()
        subscription.dispose()
        assertGrammar(recorder)
        XCTAssertEqual(recorder.elements.filter { $0 < 0 }, (0..<20).map { -$0 - 1 })
    }

    /// The holder leaves once it has delivered the backlog even when the other thread sends faster
    /// than the observer takes elements: once past the limit the other sender waits for the whole
    /// drain, not only while the backlog is past the limit (which kept the backlog at the limit and
    /// the holder delivering until the other thread stopped).
    func testTheHolderLeavesWhileAFasterSenderKeepsSending() {
        let subject = PublishSubject<Int>()
        let flooderQueued = DispatchSemaphore(value: 0)
        let deliveredByHolder = Atomic<Int>(0)
        let holder = currentThreadID()
        let sends = 50_000
        let feederDone = DispatchSemaphore(value: 0)
        let subscription = subject.subscribe(onNext: { value in
            if value == -1 {
                // The holder's own element: start the other thread and let it queue past the limit.
                DispatchQueue.global().async {
                    for value in 0..<sends {
                        if value == SenderThrottle.backlogLimit + 1 { flooderQueued.signal() }
                        subject.onNext(value)
                    }
                    feederDone.signal()
                }
                flooderQueued.wait()
            } else if currentThreadID() == holder {
                deliveredByHolder.wrappingAdd(1, ordering: .relaxed)
                usleep(20)  // an observer slower than the other thread's sending
            }
        })
        subject.onNext(-1)
        let deliveredBeforeLeaving = deliveredByHolder.load(ordering: .relaxed)
        feederDone.wait()
        subscription.dispose()
        // Before the holder starts draining, the other thread queues freely (a few hundred to a few
        // thousand elements, by the machine's load); after, it waits. The old rule kept the holder
        // delivering all 50 000.
        XCTAssertLessThan(deliveredBeforeLeaving, sends / 2)
    }

    /// A sender from another thread waits once the backlog is past the limit, and goes on when the
    /// draining thread has emptied it; nothing is lost and the order is kept.
    func testASenderWaitsWhileTheBacklogIsLongAndNothingIsLost() {
        let subject = PublishSubject<Int>()
        let firstQueued = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let draining = DispatchSemaphore(value: 0)
        let zeroDelivered = DispatchSemaphore(value: 0)
        let received = Mutex<[Int]>([])
        let subscription = subject.subscribe(onNext: { value in
            received.withAnnotatedLock { $0.append(value) }
            // Element 0 (delivered at once) waits for the other thread to queue one, so the sending
            // thread drains; element 1 (the first it drains) holds it there.
            if value == 0 {
                zeroDelivered.signal()
                firstQueued.wait()
            }
            if value == 1 {
                draining.signal()
                release.wait()
            }
        })
        let total = 3 * SenderThrottle.backlogLimit
        let sent = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let sender = Thread {
            for value in 1...total {
                subject.onNext(value)
                if value == 1 {
                    firstQueued.signal()
                    draining.wait()
                }
                sent.store(value, ordering: .releasing)
            }
            done.signal()
        }
        let drainer = Thread { subject.onNext(0) }
        drainer.start()
        zeroDelivered.wait()
        sender.start()
        let deadline = Date().addingTimeInterval(20)
        while sent.load(ordering: .acquiring) <= SenderThrottle.backlogLimit, Date() < deadline { usleep(1_000) }
        usleep(100_000)
        // Past the limit the sender waits (20 ms at most per element while the drainer is held).
        XCTAssertLessThan(sent.load(ordering: .acquiring), SenderThrottle.backlogLimit + 100)
        release.signal()
        done.wait()
        while received.withAnnotatedLock({ $0.count }) < total + 1, Date() < deadline { usleep(1_000) }
        XCTAssertEqual(received.withAnnotatedLock { $0 }, Array(0...total))
        subscription.dispose()
    }

    /// Disposed before it ended: no terminal event to wait for, only the serialization to check.
    private func assertSerialized(
        _ recorder: GrammarRecorder<Int>, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(recorder.violations, [], file: file, line: line)
        XCTAssertLessThanOrEqual(recorder.maximumConcurrentCalls, 1, "concurrent delivery", file: file, line: line)
    }
}

/// The sender throttle in its three drain loops: subjects, ``SerializingOperatorSink`` (`merge`) and
/// ``CombiningSink`` (`combineLatest`).
extension SenderThrottleTests {
    /// The observer side of a held drain cycle: element `base` (delivered at once by the holding
    /// thread) waits until the other thread has queued `base + 1`; `base + 1`, the first element the
    /// holder drains, holds it until `release`.
    private final class Held: @unchecked Sendable {
        static let cycle = 100_000
        let zeroDelivered = DispatchSemaphore(value: 0)
        let firstQueued = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let received = Shared<[Int]>([])

        func on(_ value: Int) {
            received.update { $0.append(value) }
            if value % Self.cycle == 0 {
                zeroDelivered.signal()
                firstQueued.wait()
            }
            if value % Self.cycle == 1 {
                blocked.signal()
                release.wait()
            }
        }
    }

    /// Runs one drain cycle numbered `cycle`: a holder thread delivers, then drains and is held; a
    /// sender thread fills the backlog to the limit (no wait) and then sends `extra` more, each of
    /// which must wait (the holder is held: nobody may wake it, so each wait lasts 20 ms). Returns how
    /// long those `extra` sends took; then lets the holder go and checks that everything arrived in
    /// order.
    private func heldCycle(
        _ cycle: Int, extra: Int, held: Held,
        holderSend: @escaping @Sendable (Int) -> Void, senderSend: @escaping @Sendable (Int) -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) -> TimeInterval {
        let base = cycle * Held.cycle
        let limit = SenderThrottle.backlogLimit
        let elapsed = Shared<TimeInterval>(0)
        let holderDone = DispatchSemaphore(value: 0)
        let senderDone = DispatchSemaphore(value: 0)
        held.received.update { $0 = [] }
        Thread {
            holderSend(base)
            holderDone.signal()
        }.start()
        held.zeroDelivered.wait()
        Thread {
            senderSend(base + 1)
            held.firstQueued.signal()
            held.blocked.wait()
            for value in 2...(limit + 1) { senderSend(base + value) }
            let start = Date()
            for value in (limit + 2)..<(limit + 2 + extra) { senderSend(base + value) }
            elapsed.update { $0 = Date().timeIntervalSince(start) }
            senderDone.signal()
        }.start()
        XCTAssertEqual(senderDone.wait(timeout: .now() + 5), .success, "sender hung", file: file, line: line)
        held.release.signal()
        XCTAssertEqual(holderDone.wait(timeout: .now() + 5), .success, "holder hung", file: file, line: line)
        XCTAssertEqual(
            held.received.update { $0 }, Array(base..<(base + limit + 2 + extra)), file: file, line: line)
        return elapsed.update { $0 }
    }

    /// Two held cycles on the same drain loop. In the first, each of the `extra` sends past the limit
    /// waits out its 20 ms (the holder is held). In the second, the same must hold: the wake-ups the
    /// first cycle's holder sent to senders that had already stopped waiting must not let later
    /// senders pass.
    private func assertEveryCycleThrottles(
        holderSend: @escaping @Sendable (Int) -> Void, senderSend: @escaping @Sendable (Int) -> Void,
        held: Held, file: StaticString = #filePath, line: UInt = #line
    ) {
        let extra = 6
        // 6 waits of 20 ms each at least; a third of slack for the clock.
        let least = 0.02 * Double(extra) * 0.66
        let first = heldCycle(1, extra: extra, held: held, holderSend: holderSend, senderSend: senderSend)
        XCTAssertGreaterThan(first, least, "cycle 1: the senders past the limit did not wait", file: file, line: line)
        let second = heldCycle(2, extra: extra, held: held, holderSend: holderSend, senderSend: senderSend)
        XCTAssertGreaterThan(
            second, least,
            "cycle 2: the senders past the limit passed at once (stale wake-ups from cycle 1's timed-out waits)",
            file: file, line: line)
    }

    // MARK: - Stale wake-ups loosen the bound for good

    func testThrottleSubjectTimedOutWaitsLeaveNoFreePasses() {
        let subject = PublishSubject<Int>()
        let held = Held()
        let subscription = subject.subscribe(onNext: { held.on($0) })
        assertEveryCycleThrottles(
            holderSend: { subject.onNext($0) }, senderSend: { subject.onNext($0) }, held: held)
        subscription.dispose()
    }

    func testThrottleMergeTimedOutWaitsLeaveNoFreePasses() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let held = Held()
        let subscription = Observable.merge(first, second).subscribe(onNext: { held.on($0) })
        assertEveryCycleThrottles(holderSend: { first.onNext($0) }, senderSend: { second.onNext($0) }, held: held)
        subscription.dispose()
    }

    func testThrottleCombineLatestTimedOutWaitsLeaveNoFreePasses() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let held = Held()
        // Emits whichever source moved last (each cycle's values are above the previous cycle's).
        let subscription = Observable.combineLatest(first, second) { max($0, $1) }.subscribe(onNext: { held.on($0) })
        second.onNext(-1)
        assertEveryCycleThrottles(holderSend: { first.onNext($0) }, senderSend: { second.onNext($0) }, held: held)
        subscription.dispose()
    }

    // MARK: - Regression tests

    /// The holder sends far more than the limit re-entrantly from inside an element it drains: it
    /// never waits on itself (each wait would cost 20 ms: 4 000 of them, 80 s).
    func testThrottleReentrantFloodFromADrainedElementNeverWaits() {
        let subject = PublishSubject<Int>()
        let count = 4 * SenderThrottle.backlogLimit
        let received = Shared<[Int]>([])
        let zeroDelivered = DispatchSemaphore(value: 0)
        let firstQueued = DispatchSemaphore(value: 0)
        let subscription = subject.subscribe(onNext: { value in
            received.update { $0.append(value) }
            if value == 0 {
                zeroDelivered.signal()
                firstQueued.wait()
            }
            // The first drained element: the holder is now the drainer.
            if value == 1 {
                for extra in 0..<count { subject.onNext(1_000 + extra) }
            }
        })
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        Thread {
            subject.onNext(0)
            done.signal()
        }.start()
        zeroDelivered.wait()
        subject.onNext(1)
        firstQueued.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "the holder waited on itself")
        XCTAssertEqual(received.update { $0 }, [0, 1] + (0..<count).map { 1_000 + $0 })
        subscription.dispose()
    }

    /// Several threads flood one subject, another a `merge`, another a `combineLatest`, at once: many
    /// senders are throttled together (the gate-owner bookkeeping is contended). Every element
    /// arrives once, each sender's in its order, and nobody hangs.
    func testThrottleManySendersAtOnceLoseNothing() {
        let senders = 3
        let perSender = 3 * SenderThrottle.backlogLimit
        let subject = PublishSubject<Int>()
        let sources = (0..<senders).map { _ in PublishSubject<Int>() }
        let fromSubject = Shared<[Int]>([])
        let fromMerge = Shared<[Int]>([])
        let fromCombine = Shared<[Int]>([])
        let slow: @Sendable (Shared<[Int]>, Int) -> Void = { store, value in
            store.update { $0.append(value) }
            // Slower than the senders, so that backlogs pass the limit.
            if value % 16 == 0 { usleep(100) }
        }
        let subscriptions = [
            subject.subscribe(onNext: { slow(fromSubject, $0) }),
            Observable.merge(sources).subscribe(onNext: { slow(fromMerge, $0) }),
            Observable.combineLatest(sources) { $0 }.subscribe(onNext: { slow(fromCombine, $0.max()!) }),
        ]
        for (index, source) in sources.enumerated() { source.onNext(-index - 1) }
        fromCombine.update { $0 = [] }
        fromMerge.update { $0 = [] }
        let start = Date()
        race(
            (0..<senders).map { sender in
                { @Sendable in
                    for value in 0..<perSender {
                        let tagged = value * senders + sender
                        subject.onNext(tagged)
                        sources[sender].onNext(tagged)
                    }
                }
            })
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        for (name, store) in [("subject", fromSubject), ("merge", fromMerge)] {
            let received = store.update { $0 }
            XCTAssertEqual(received.count, senders * perSender, name)
            XCTAssertEqual(Set(received).count, senders * perSender, "\(name): duplicates")
            for sender in 0..<senders {
                let own = received.filter { $0 % senders == sender }
                XCTAssertEqual(own, own.sorted(), "\(name): sender \(sender) reordered")
            }
        }
        // combineLatest emits the maximum latest value: it never goes down.
        let combined = fromCombine.update { $0 }
        XCTAssertEqual(combined.count, senders * perSender)
        XCTAssertEqual(combined.last, (perSender - 1) * senders + senders - 1)
        XCTAssertEqual(combined, combined.sorted(), "combineLatest went back")
        for subscription in subscriptions { subscription.dispose() }
    }

    /// Two subjects feed each other from two threads (the lock-inversion shape): each thread floods
    /// its subject, and each subject's observer forwards the other thread's elements into the other
    /// subject. Both finish; each subject sees every element once, each thread's in order.
    func testThrottleTwoSubjectsFeedingEachOtherFinish() {
        let count = 2 * SenderThrottle.backlogLimit
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        let intoLeft = Shared<[Int]>([])
        let intoRight = Shared<[Int]>([])
        // Even values start in `left`, odd ones in `right`; each is forwarded once to the other.
        let subscriptions = [
            left.subscribe(onNext: { value in
                intoLeft.update { $0.append(value) }
                if value % 16 == 0 { usleep(100) }
                if value % 2 == 0 { right.onNext(value) }
            }),
            right.subscribe(onNext: { value in
                intoRight.update { $0.append(value) }
                if value % 16 == 1 { usleep(100) }
                if value % 2 == 1 { left.onNext(value) }
            }),
        ]
        let start = Date()
        race([
            { for value in 0..<count { left.onNext(2 * value) } },
            { for value in 0..<count { right.onNext(2 * value + 1) } },
        ])
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        for (name, store) in [("left", intoLeft), ("right", intoRight)] {
            let received = store.update { $0 }
            XCTAssertEqual(received.count, 2 * count, name)
            XCTAssertEqual(Set(received).count, 2 * count, "\(name): duplicates")
            let even = received.filter { $0 % 2 == 0 }
            let odd = received.filter { $0 % 2 == 1 }
            XCTAssertEqual(even, even.sorted(), name)
            XCTAssertEqual(odd, odd.sorted(), name)
        }
        for subscription in subscriptions { subscription.dispose() }
    }

    /// A `merge` whose holder is held while a sender waits past the limit: disposing the subscription
    /// lets the sender go at once (the sink wakes its waiters when it releases its resources), and
    /// what it sends afterwards is dropped without waiting.
    func testThrottleMergeDisposedWhileASenderWaitsReleasesIt() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let held = Held()
        let subscription = Observable.merge(first, second).subscribe(onNext: { held.on($0) })
        let limit = SenderThrottle.backlogLimit
        let holderDone = DispatchSemaphore(value: 0)
        let senderDone = DispatchSemaphore(value: 0)
        let late = Shared<TimeInterval>(0)
        Thread {
            first.onNext(0)
            holderDone.signal()
        }.start()
        held.zeroDelivered.wait()
        Thread {
            second.onNext(1)
            held.firstQueued.signal()
            held.blocked.wait()
            for value in 2...(limit + 1) { second.onNext(value) }
            subscription.dispose()
            // Disposed: nothing is queued any more, so nothing waits (200 sends: 4 s if they did).
            let start = Date()
            for value in 0..<200 { second.onNext(limit + 2 + value) }
            late.update { $0 = Date().timeIntervalSince(start) }
            senderDone.signal()
        }.start()
        XCTAssertEqual(senderDone.wait(timeout: .now() + 5), .success)
        XCTAssertLessThan(late.update { $0 }, 0.5)
        held.release.signal()
        XCTAssertEqual(holderDone.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(held.received.update { $0 }, [0, 1])
    }
}
