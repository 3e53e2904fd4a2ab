import Dispatch
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// Sending to a subject (`SubjectCore+Sending.swift`; the Contracts article, "Serialization and who
/// delivers"): one sender delivers at a time, on its own thread and before its call returns, and
/// drains what was sent meanwhile — re-entrantly from inside a delivery or by other threads, which
/// queue and return. Re-entrant sends, senders blocked in an observer while other threads subscribe
/// and dispose, racing senders (thread-sanitizer stress tests), and the lifetime of observers' sinks
/// (released once, never while being called, never kept). Merged from `SubjectCoreTests`,
/// `SubjectCoreConcurrencyTests`, `SubjectThreadingTests` and `SubjectInterleavingTests`.
final class SubjectCoreSendingTests: RxLeakCheckingTestCase {
    private final class Owner: Sendable {}
    private let threads = 4
    private let perThread = 10_000

    // MARK: - Re-entrant sends from inside a delivery (single thread, exact outcomes)

    func testNestedOnNextIsQueuedUntilEveryObserverSawTheCurrentElement() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        var depth = 0
        var maxDepth = 0
        let first = subject.subscribe(onNext: { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            log.append("a\(value)")
            if value < 3 { subject.onNext(value + 1) }
            depth -= 1
        })
        let second = subject.subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        XCTAssertEqual(log, ["a1", "b1", "a2", "b2", "a3", "b3"])
        XCTAssertEqual(maxDepth, 1)
        first.dispose()
        second.dispose()
    }

    func testNestedEventsFromTheLastObserverKeepTheirOrder() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let first = subject.subscribe(onNext: { log.append("a\($0)") })
        let second = subject.subscribe(onNext: { value in
            log.append("b\(value)")
            if value == 1 {
                subject.onNext(2)
                subject.onNext(3)
                log.append("b-returned")
            }
        })
        subject.onNext(1)
        XCTAssertEqual(log, ["a1", "b1", "b-returned", "a2", "b2", "a3", "b3"])
        first.dispose()
        second.dispose()
    }

    func testNestedCompletionIsDeliveredAfterTheCurrentElement() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let first = subject.subscribe(
            onNext: { value in
                log.append("a\(value)")
                subject.onCompleted()
                subject.onNext(99)
            }, onCompleted: { log.append("a|") })
        let second = subject.subscribe(onNext: { log.append("b\($0)") }, onCompleted: { log.append("b|") })
        subject.onNext(1)
        XCTAssertEqual(log, ["a1", "b1", "a|", "b|"])
        XCTAssertFalse(subject.hasObservers)
        first.dispose()
        second.dispose()
    }

    func testReentrantTerminationOfAsyncSubjectIsDeliveredOnce() {
        let subject = AsyncSubject<Int>()
        var log: [String] = []
        let first = subject.subscribe(
            onNext: { value in
                log.append("a\(value)")
                subject.onCompleted()
            }, onCompleted: { log.append("a|") })
        let second = subject.subscribe(onNext: { log.append("b\($0)") }, onCompleted: { log.append("b|") })
        subject.onNext(5)
        subject.onCompleted()
        XCTAssertEqual(log, ["a5", "b5", "a|", "b|"])
        first.dispose()
        second.dispose()
    }

    func testEveryReentrantOperationFromOneDelivery() {
        let subject = BehaviorSubject(value: 0)
        var log: [String] = []
        var subscriptions: [Disposable] = []
        var selfSubscription: Disposable?
        selfSubscription = subject.subscribe(
            onNext: { value in
                log.append("a\(value)")
                guard value == 1 else { return }
                subject.onNext(2)
                subscriptions.append(
                    subject.subscribe(onNext: { log.append("c\($0)") }, onCompleted: { log.append("c|") }))
                selfSubscription?.dispose()
                subject.onNext(3)
                subject.onCompleted()
                subject.onNext(4)
            }, onCompleted: { log.append("a|") })
        let second = subject.subscribe(onNext: { log.append("b\($0)") }, onCompleted: { log.append("b|") })
        subject.onNext(1)
        // `c` subscribed while 2 was queued: its replay is 2 (the current value), then 3 and the end,
        // queued after it. `a` unsubscribed itself: it gets nothing queued.
        XCTAssertEqual(log, ["a0", "b0", "a1", "c2", "b1", "b2", "b3", "c3", "b|", "c|"])
        XCTAssertFalse(subject.hasObservers)
        second.dispose()
        subscriptions.forEach { $0.dispose() }
    }

    func testSubjectFeedingASubjectWhoseObserverSendsBackIntoTheFirst() {
        let source = PublishSubject<Int>()
        let target = BehaviorSubject(value: 0)
        var log: [String] = []
        let feed = source.subscribe(target)
        var late: Disposable?
        let observer = target.subscribe(
            onNext: { value in
                log.append("a\(value)")
                guard value == 1 else { return }
                // Queued behind the delivery of 1 by the source, then delivered by it.
                source.onNext(2)
                late = target.subscribe(onNext: { log.append("c\($0)") }, onCompleted: { log.append("c|") })
                source.onCompleted()
            }, onCompleted: { log.append("a|") })
        source.onNext(1)
        XCTAssertEqual(log, ["a0", "a1", "c1", "a2", "c2", "a|", "c|"])
        XCTAssertFalse(source.hasObservers)
        XCTAssertFalse(target.hasObservers)
        feed.dispose()
        observer.dispose()
        late?.dispose()
    }

    // MARK: - Elements are released outside the subject's lock

    func testBehaviorSubjectReleasesTheReplacedElementOutsideItsLock() {
        let subject = BehaviorSubject<LockProbe.Tracked?>(value: nil)
        let probe = LockProbe { _ = try? subject.value() }
        subject.onNext(probe.make())
        subject.onNext(nil)
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
        subject.dispose()
    }

    func testReplaySubjectReleasesTheElementLeavingItsBufferOutsideItsLock() {
        let subject = ReplaySubject<LockProbe.Tracked?>.create(bufferSize: 1)
        let probe = LockProbe { subject.onNext(nil) }
        subject.onNext(probe.make())
        subject.onNext(nil)
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
        subject.dispose()
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

    // MARK: - Other threads while a sender is blocked in an observer (deterministic)

    func testSubscribeFromAnotherThreadDoesNotWaitForASenderBlockedInAnObserver() {
        let subject = BehaviorSubject(value: 0)
        let inHandler = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let resumedInTime = Atomic<Bool>(false)
        let first = subject.subscribe(onNext: { value in
            guard value == 1 else { return }
            inHandler.signal()
            resumedInTime.store(resume.wait(timeout: .now() + 5) == .success, ordering: .relaxed)
        })
        let sender = DispatchGroup()
        DispatchQueue.global().async(group: sender) { subject.onNext(1) }
        XCTAssertEqual(inHandler.wait(timeout: .now() + 5), .success)
        // The sender is blocked inside the first observer's onNext(1).
        let received = Mutex<[Int]>([])
        let second = subject.subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [1], "the replay came on this thread, not behind the sender")
        // Another sender finds the first one emitting: it queues and returns.
        subject.onNext(2)
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [1])
        resume.signal()
        XCTAssertEqual(sender.wait(timeout: .now() + 5), .success)
        XCTAssertTrue(resumedInTime.load(ordering: .relaxed))
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [1, 2])
        first.dispose()
        second.dispose()
    }

    func testNothingReachesOtherObserversFromSubscribeDisposeOrSubjectDisposeWhileASenderIsBlocked() {
        let subject = BehaviorSubject(value: 0)
        let inHandler = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let firstLog = Mutex<[Int]>([])
        let first = subject.subscribe(onNext: { value in
            firstLog.withAnnotatedLock { $0.append(value) }
            guard value == 1 else { return }
            inHandler.signal()
            _ = resume.wait(timeout: .now() + 5)
        })
        let sender = DispatchGroup()
        DispatchQueue.global().async(group: sender) { subject.onNext(1) }
        XCTAssertEqual(inHandler.wait(timeout: .now() + 5), .success)
        subject.onNext(2)  // queued behind the blocked delivery
        weak var weakOwner: Owner?
        let secondLog = Mutex<[Int]>([])
        do {
            let owner = Owner()
            weakOwner = owner
            let second = subject.subscribe(onNext: { value in
                _ = owner
                secondLog.withAnnotatedLock { $0.append(value) }
            })
            second.dispose()
        }
        subject.dispose()
        XCTAssertEqual(firstLog.withAnnotatedLock { $0 }, [0, 1])
        XCTAssertEqual(secondLog.withAnnotatedLock { $0 }, [2])
        resume.signal()
        XCTAssertEqual(sender.wait(timeout: .now() + 5), .success)
        // 2 was dropped by the disposal; the unsubscribed observer was released by the sender.
        XCTAssertEqual(firstLog.withAnnotatedLock { $0 }, [0, 1])
        XCTAssertNil(weakOwner)
        first.dispose()
    }

    func testAnObserverDisposedFromAnotherThreadIsReleasedOnlyAfterItsOnNextReturns() {
        for disposeSubject in [false, true] {
            let subject = PublishSubject<Int>()
            let inHandler = DispatchSemaphore(value: 0)
            let resume = DispatchSemaphore(value: 0)
            let witnesses = WitnessCounter()
            let subscription = subject.subscribe(
                onNext: witnesses.watching { _ in
                    inHandler.signal()
                    _ = resume.wait(timeout: .now() + 5)
                })
            let sender = DispatchGroup()
            DispatchQueue.global().async(group: sender) { subject.onNext(1) }
            XCTAssertEqual(inHandler.wait(timeout: .now() + 5), .success)
            if disposeSubject { subject.dispose() } else { subscription.dispose() }
            XCTAssertEqual(witnesses.released, 0, "released while its onNext runs")
            resume.signal()
            XCTAssertEqual(sender.wait(timeout: .now() + 5), .success)
            XCTAssertEqual(witnesses.released, 1, "released by the sender once the delivery ended")
            XCTAssertEqual(witnesses.releasedWhileRunning, 0)
            subscription.dispose()
        }
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

    func testPublishSubjectSerializesConcurrentProducers() {
        let subject = PublishSubject<Int>()
        assertSerializedDelivery(subject: subject, expectedExtra: 0)
    }

    func testBehaviorSubjectSerializesConcurrentProducers() {
        let subject = BehaviorSubject(value: -1)
        assertSerializedDelivery(subject: subject, expectedExtra: 1)
    }

    func testReplaySubjectSerializesConcurrentProducers() {
        let subject = ReplaySubject<Int>.create(bufferSize: 8)
        assertSerializedDelivery(subject: subject, expectedExtra: 0)
    }

    func testPublishSubjectWithSubscribersJoiningAndLeavingWhileEmitting() {
        assertConcurrentSubscriptionsAreConsistent(PublishSubject<Int>())
    }

    func testBehaviorSubjectWithSubscribersJoiningAndLeavingWhileEmitting() {
        assertConcurrentSubscriptionsAreConsistent(BehaviorSubject(value: -1))
    }

    func testReplaySubjectWithSubscribersJoiningAndLeavingWhileEmitting() {
        assertConcurrentSubscriptionsAreConsistent(ReplaySubject<Int>.create(bufferSize: 16))
    }

    func testDisposingTheSubjectWhileEmittingStopsDelivery() {
        let subject = PublishSubject<Int>()
        let recorder = OrderRecorder()
        let subscription = subject.subscribe(onNext: recorder.record)
        let threads = self.threads
        let perThread = self.perThread
        DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
            if index == 0 {
                while recorder.count < 100 {}
                subject.dispose()
                return
            }
            for sequence in 0..<perThread { subject.onNext(encode(thread: index - 1, sequence: sequence)) }
        }
        let countAfterDispose = recorder.count
        subject.onNext(encode(thread: 0, sequence: perThread))
        XCTAssertTrue(subject.isDisposed)
        XCTAssertFalse(subject.hasObservers)
        XCTAssertEqual(recorder.count, countAfterDispose)
        XCTAssertGreaterThanOrEqual(countAfterDispose, 100)
        XCTAssertEqual(recorder.overlaps, 0)
        XCTAssertEqual(recorder.orderViolations, 0)
        subscription.dispose()
    }

    // MARK: - Many threads

    /// Senders, subscribers, disposers and a terminal event racing on fresh subjects; every observer
    /// is checked for overlapping calls, gaps, duplicates, events after its end, and its sink for
    /// being released while it runs.
    func testRacingSendersSubscribersAndTerminationOnBehaviorSubjects() {
        let witnesses = WitnessCounter()
        let failures = Failures()
        for round in 0..<150 {
            let subject = BehaviorSubject(value: 0)
            let permanent = StrictRecorder(failures: failures)
            let permanentSubscription = subject.subscribe(permanent.observer(witness: witnesses.make()))
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                switch index {
                case 0:
                    for element in 1...200 { subject.onNext(element) }
                    if round.isMultiple(of: 2) {
                        subject.onCompleted()
                    } else {
                        subject.onError(InterleavingError.boom)
                    }
                default:
                    for _ in 0..<8 {
                        let recorder = StrictRecorder(failures: failures)
                        let subscription = subject.subscribe(recorder.observer(witness: witnesses.make()))
                        recorder.checkReplayed()
                        subscription.dispose()
                    }
                }
            }
            permanent.checkComplete(last: 200)
            XCTAssertFalse(subject.hasObservers)
            permanentSubscription.dispose()
        }
        XCTAssertEqual(failures.list, [])
        XCTAssertEqual(witnesses.releasedWhileRunning, 0)
        XCTAssertEqual(witnesses.released, witnesses.made)
    }

    func testRacingSendersSubscribersAndSubjectDisposalOnReplaySubjects() {
        let witnesses = WitnessCounter()
        let failures = Failures()
        for _ in 0..<150 {
            let subject = ReplaySubject<Int>.create(bufferSize: 3)
            subject.onNext(0)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                switch index {
                case 0:
                    for element in 1...200 { subject.onNext(element) }
                    subject.dispose()
                default:
                    for _ in 0..<8 {
                        let recorder = StrictRecorder(failures: failures)
                        let subscription = subject.subscribe(recorder.observer(witness: witnesses.make()))
                        // Either the replay came before `subscribe` returned, or the subject was
                        // disposed first and the error did.
                        recorder.checkReplayedOrDisposed()
                        subscription.dispose()
                    }
                }
            }
            XCTAssertFalse(subject.hasObservers)
        }
        XCTAssertEqual(failures.list, [])
        XCTAssertEqual(witnesses.releasedWhileRunning, 0)
        XCTAssertEqual(witnesses.released, witnesses.made)
    }

    /// Observers dispose themselves, each other and the subject, subscribe and send from inside
    /// deliveries, on several threads at once; subjects are dropped without disposing the rest.
    func testReentrantChaosFromSeveralThreads() {
        let witnesses = WitnessCounter()
        let failures = Failures()
        for round in 0..<100 {
            let subject = BehaviorSubject(value: 0)
            let bag = Mutex<[Disposable]>([])
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                for step in 0..<20 {
                    let recorder = StrictRecorder(failures: failures, checksOrder: false)
                    let own = Mutex<Disposable?>(nil)
                    let witness = witnesses.make()
                    let subscription = subject.subscribe(
                        onNext: { [weak subject, witness] value in
                            witness.enter()
                            defer { witness.leave() }
                            recorder.receive(.next(value))
                            guard let subject else { return }
                            switch (value + step) % 7 {
                            case 0: own.withAnnotatedLock { $0 }?.dispose()
                            case 1: subject.onNext(value + 1)
                            case 2: bag.withAnnotatedLock { $0.popLast() }?.dispose()
                            case 3: _ = subject.subscribe(onNext: { _ in }, onError: { _ in })
                            case 4 where round.isMultiple(of: 5) && index == 0 && step == 19: subject.dispose()
                            default: break
                            }
                        },
                        onError: { [witness] in
                            witness.enter()
                            defer { witness.leave() }
                            recorder.receive(.error($0))
                        },
                        onCompleted: { [witness] in
                            witness.enter()
                            defer { witness.leave() }
                            recorder.receive(.completed)
                        })
                    own.withAnnotatedLock { $0 = subscription }
                    if step.isMultiple(of: 3) { bag.withAnnotatedLock { $0.append(subscription) } }
                    subject.onNext(step * 10 + index)
                }
                if index == 1 && round.isMultiple(of: 3) { subject.onCompleted() }
            }
            // Whatever is left undisposed goes with the subject.
            bag.withAnnotatedLock { $0 = [] }
        }
        XCTAssertEqual(failures.list, [])
        XCTAssertEqual(witnesses.releasedWhileRunning, 0)
        XCTAssertEqual(witnesses.released, witnesses.made)
    }

    func testAsyncSubjectSubscribersRacingItsCompletionGetTheLastElementOnce() {
        let failures = Failures()
        for _ in 0..<300 {
            let subject = AsyncSubject<Int>()
            let logs = Mutex<[EventLog]>([])
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 {
                    for element in 1...20 { subject.onNext(element) }
                    subject.onCompleted()
                    return
                }
                for _ in 0..<4 {
                    let events = EventLog()
                    _ = subject.subscribe { event in events.append("\(event)") }
                    logs.withAnnotatedLock { $0.append(events) }
                }
            }
            for events in logs.withAnnotatedLock({ $0 }) where events.list != ["next(20)", "completed"] {
                failures.add("saw \(events.list)")
            }
            XCTAssertFalse(subject.hasObservers)
        }
        XCTAssertEqual(failures.list, [])
    }

    // MARK: - Scenarios

    private func assertSerializedDelivery<Subject: SubjectType & ObserverType>(
        subject: Subject, expectedExtra: Int, file: StaticString = #filePath, line: UInt = #line
    ) where Subject.Element == Int, Subject: Sendable {
        let recorders = [OrderRecorder(), OrderRecorder()]
        let subscriptions = recorders.map { recorder in subject.subscribe(onNext: recorder.record) }
        let perThread = self.perThread
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for sequence in 0..<perThread { subject.onNext(encode(thread: index, sequence: sequence)) }
        }
        for recorder in recorders {
            XCTAssertEqual(recorder.count, threads * perThread + expectedExtra, file: file, line: line)
            XCTAssertEqual(recorder.overlaps, 0, "observer ran concurrently", file: file, line: line)
            XCTAssertEqual(recorder.orderViolations, 0, "a thread's elements out of order", file: file, line: line)
            for thread in 0..<threads {
                XCTAssertEqual(recorder.last(of: thread), perThread - 1, file: file, line: line)
            }
        }
        subscriptions.forEach { $0.dispose() }
    }

    private func assertConcurrentSubscriptionsAreConsistent<Subject: SubjectType & ObserverType & Sendable>(
        _ subject: Subject, file: StaticString = #filePath, line: UInt = #line
    ) where Subject.Element == Int {
        let permanent = OrderRecorder()
        let permanentSubscription = subject.subscribe(onNext: permanent.record)
        let transient = Mutex<[OrderRecorder]>([])
        let emitters = 2
        let subscribers = 2
        let perThread = self.perThread
        DispatchQueue.concurrentPerform(iterations: emitters + subscribers) { index in
            if index < emitters {
                for sequence in 0..<perThread { subject.onNext(encode(thread: index, sequence: sequence)) }
            } else {
                for _ in 0..<200 {
                    let recorder = OrderRecorder()
                    let subscription = subject.subscribe(onNext: recorder.record)
                    subscription.dispose()
                    transient.withAnnotatedLock { $0.append(recorder) }
                }
            }
        }
        XCTAssertEqual(permanent.overlaps, 0, file: file, line: line)
        XCTAssertEqual(permanent.orderViolations, 0, file: file, line: line)
        XCTAssertEqual(permanent.last(of: 0), perThread - 1, file: file, line: line)
        XCTAssertEqual(permanent.last(of: 1), perThread - 1, file: file, line: line)
        let recorders = transient.withAnnotatedLock { $0 }
        XCTAssertEqual(recorders.count, 2 * 200, file: file, line: line)
        for recorder in recorders {
            XCTAssertEqual(recorder.overlaps, 0, file: file, line: line)
            XCTAssertEqual(recorder.orderViolations, 0, file: file, line: line)
        }
        permanentSubscription.dispose()
    }
}

private func encode(thread: Int, sequence: Int) -> Int {
    thread * 1_000_000 + sequence
}

/// Records elements delivered (serially, by contract) to one observer; detects overlapping calls
/// with an atomic counter and checks that each producer thread's elements arrive in order.
///
/// Thread-safety: the plain stored properties are touched only inside `record`, which the subject
/// guarantees never runs concurrently (that is what `active` checks); readers run after all
/// producers joined.
private final class OrderRecorder: @unchecked Sendable {
    private let active = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    private var lastByThread: [Int: Int] = [:]
    private(set) var overlaps = 0
    private(set) var orderViolations = 0

    var count: Int { received.load(ordering: .acquiring) }

    func last(of thread: Int) -> Int? { lastByThread[thread] }

    func record(_ value: Int) {
        if active.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            overlaps += 1
        }
        if value >= 0 {
            let thread = value / 1_000_000
            let sequence = value % 1_000_000
            if let last = lastByThread[thread], last >= sequence { orderViolations += 1 }
            lastByThread[thread] = sequence
        }
        received.add(1, ordering: .releasing)
        active.subtract(1, ordering: .acquiringAndReleasing)
    }
}
