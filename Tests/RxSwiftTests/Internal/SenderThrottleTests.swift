import Dispatch
import Foundation
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// The drain loops keep their backlog bounded: a thread that keeps sending while another thread
/// drains waits once the backlog is long, so the draining thread gets back to its own work and
/// memory stays bounded (``SenderThrottle``). Without it (checked with an unlimited backlog) the
/// `combineLatest`/`zip` and `merge` tests hung in 3 runs out of 3 (the first reviewer test of the kind
/// grew to 14 GB before it was stopped) and the subject test in 1 of 3; with it, all pass in 0.2 s.
final class SenderThrottleTests: RxLeakCheckingTestCase {
    /// `combineLatest` and `zip` attach their constant sources while another thread floods the first
    /// one: `subscribe` returns.
    func testSubscribingToCombiningOperatorsReturnsWhileASourceIsFlooded() {
        let flooded = PublishSubject<Int>()
        let feeder = FloodingThread { flooded.onNext($0) }
        for round in 0..<40 {
            let recorder = FilteringGrammarRecorder<Int>()
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
        var subscriptions: [(FilteringGrammarRecorder<Int>, Disposable)] = []
        for _ in 0..<10 {
            // Slower than the feeding thread (see the subject test).
            let recorder = FilteringGrammarRecorder<Int>(elementWork: 1)
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
        let recorder = FilteringGrammarRecorder<Int>(elementWork: 1)
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
        _ recorder: FilteringGrammarRecorder<Int>, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(recorder.violations, [], file: file, line: line)
        XCTAssertLessThanOrEqual(recorder.maximumConcurrentCalls, 1, "concurrent delivery", file: file, line: line)
    }
}
