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

/// The subjects' threading model under interleaved calls (the Contracts article, "Serialization and
/// who delivers"): re-entrancy from inside deliveries and replays, threads racing senders,
/// subscribers, disposals and terminal events, and the lifetime of observers' sinks (released once,
/// never while being called, never kept).
final class SubjectInterleavingTests: RxLeakCheckingTestCase {
    private final class Owner: Sendable {}

    // MARK: - Re-entrancy from inside a replay (single thread, exact outcomes)

    func testTerminationSentFromInsideAReplayReachesTheOthersAndTheNewObserverOnce() {
        let subject = BehaviorSubject(value: 0)
        var log: [String] = []
        let first = subject.subscribe(onNext: { log.append("a\($0)") }, onCompleted: { log.append("a|") })
        let second = subject.subscribe(
            onNext: { value in
                log.append("b\(value)")
                if value == 0 {
                    subject.onNext(1)
                    subject.onCompleted()
                    subject.onNext(2)
                }
            }, onCompleted: { log.append("b|") })
        // The sends inside the replay go to the others on this thread at once; the new observer gets
        // them after its replay, before `subscribe` returns.
        XCTAssertEqual(log, ["a0", "b0", "a1", "a|", "b1", "b|"])
        XCTAssertFalse(subject.hasObservers)
        first.dispose()
        second.dispose()
    }

    func testSubscriberAddedInsideAnotherReplayAndTheirSendsAreCaughtUpByBoth() {
        let subject = BehaviorSubject(value: 0)
        var log: [String] = []
        var inner: Disposable?
        let outer = subject.subscribe(onNext: { value in
            log.append("b\(value)")
            guard value == 0 else { return }
            inner = subject.subscribe(onNext: { value in
                log.append("c\(value)")
                if value == 0 { subject.onNext(1) }
            })
        })
        XCTAssertEqual(log, ["b0", "c0", "c1", "b1"])
        subject.onNext(2)
        // The inner subscriber joined the array first.
        XCTAssertEqual(log, ["b0", "c0", "c1", "b1", "c2", "b2"])
        outer.dispose()
        inner?.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    func testDisposingTheSubjectInsideAReplayFinishesTheReplayThenReleasesTheObserver() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for element in 1...3 { subject.onNext(element) }
        var log: [String] = []
        weak var weakOwner: Owner?
        let first = subject.subscribe { log.append("a\($0)") }
        let second: Disposable
        do {
            let owner = Owner()
            weakOwner = owner
            second = subject.subscribe { event in
                _ = owner
                log.append("b\(event)")
                if case .next(1) = event {
                    subject.dispose()
                    subject.onNext(9)
                }
            }
        }
        // As RxSwift: the replay in progress is finished (it is part of `subscribe`), nothing after.
        XCTAssertEqual(log, ["anext(1)", "anext(2)", "anext(3)", "bnext(1)", "bnext(2)", "bnext(3)"])
        XCTAssertNil(weakOwner, "the subject let go of the new observer once its replay ended")
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(4)
        let late = subject.subscribe { log.append("c\($0)") }
        XCTAssertEqual(log.last.map { $0.hasPrefix("cerror(") }, true)
        first.dispose()
        second.dispose()
        late.dispose()
    }

    func testSubscribingFromInsideOnCompletedGetsOnlyTheTerminalEvent() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        var log: [String] = []
        var late: Disposable?
        let first = subject.subscribe(
            onNext: { log.append("a\($0)") },
            onCompleted: {
                log.append("a|")
                subject.onNext(7)
                late = subject.subscribe(onNext: { log.append("c\($0)") }, onCompleted: { log.append("c|") })
            })
        let second = subject.subscribe(onNext: { log.append("b\($0)") }, onCompleted: { log.append("b|") })
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(log, ["a1", "b1", "a|", "c1", "c|", "b|"])
        XCTAssertFalse(subject.hasObservers)
        first.dispose()
        second.dispose()
        late?.dispose()
    }

    func testDisposingTheSubjectInsideOnCompletedStillCompletesTheOthersAndReleasesThem() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        weak var weakOwner: Owner?
        let first = subject.subscribe(onCompleted: {
            log.append("a|")
            subject.dispose()
        })
        let second: Disposable
        do {
            let owner = Owner()
            weakOwner = owner
            second = subject.subscribe(onCompleted: {
                _ = owner
                log.append("b|")
            })
        }
        subject.onCompleted()
        XCTAssertEqual(log, ["a|", "b|"])
        XCTAssertNil(weakOwner)
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

    // MARK: - Another thread while a subscriber catches up (deterministic, via the test hook)

    func testErrorSentWhileASubscriberReceivesItsReplayEndsItAfterTheReplay() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(0)
        subject.onNext(1)
        let received = Mutex<[String]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            DispatchQueue.global().sync {
                subject.onNext(2)
                subject.onError(InterleavingError.boom)
                subject.onNext(3)
            }
        }) {
            subject.subscribe { event in received.withAnnotatedLock { $0.append("\(event)") } }
        }
        XCTAssertEqual(received.withAnnotatedLock { $0 }, ["next(0)", "next(1)", "next(2)", "error(boom)"])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    func testManyElementsSentWhileASubscriberCatchesUpArriveInOrderAndThenLive() {
        let subject = BehaviorSubject(value: -1)
        let existing = Mutex<[Int]>([])
        let first = subject.subscribe(onNext: { value in existing.withAnnotatedLock { $0.append(value) } })
        let received = Mutex<[Int]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            DispatchQueue.global().sync {
                for element in 0..<100 { subject.onNext(element) }
            }
        }) {
            subject.subscribe(onNext: { value in received.withAnnotatedLock { $0.append(value) } })
        }
        XCTAssertEqual(received.withAnnotatedLock { $0 }, Array(-1..<100))
        subject.onNext(100)
        XCTAssertEqual(received.withAnnotatedLock { $0 }, Array(-1...100))
        XCTAssertEqual(existing.withAnnotatedLock { $0 }, Array(-1...100))
        first.dispose()
        subscription.dispose()
    }

    func testASecondThreadSubscribingWhileTheFirstCatchesUpGetsItsOwnReplay() {
        let subject = BehaviorSubject(value: 0)
        let firstLog = Mutex<[Int]>([])
        let secondLog = Mutex<[Int]>([])
        let second = Mutex<Disposable?>(nil)
        let fired = Atomic<Bool>(false)
        let first = SubjectTestHooks.whileCatchingUp({
            // Runs for both subscribers; only the first one sends and subscribes.
            guard !fired.exchange(true, ordering: .relaxed) else { return }
            DispatchQueue.global().sync {
                subject.onNext(1)
                let disposable = subject.subscribe(onNext: { value in
                    secondLog.withAnnotatedLock { $0.append(value) }
                })
                second.withAnnotatedLock { $0 = disposable }
                subject.onNext(2)
            }
        }) {
            subject.subscribe(onNext: { value in firstLog.withAnnotatedLock { $0.append(value) } })
        }
        // The first subscriber's replay is 0 (it registered before 1 was sent), then 1 and 2.
        XCTAssertEqual(firstLog.withAnnotatedLock { $0 }, [0, 1, 2])
        XCTAssertEqual(secondLog.withAnnotatedLock { $0 }, [1, 2])
        subject.onNext(3)
        XCTAssertEqual(firstLog.withAnnotatedLock { $0 }, [0, 1, 2, 3])
        XCTAssertEqual(secondLog.withAnnotatedLock { $0 }, [1, 2, 3])
        first.dispose()
        second.withAnnotatedLock { $0 }?.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    func testDisposingTheSubjectWhileASubscriberCatchesUpReleasesWhatWasQueuedForIt() {
        let subject = ReplaySubject<QueuedProbe.Tracked?>.create(bufferSize: 1)
        subject.onNext(nil)
        let probe = QueuedProbe(touch: { subject.onNext(nil) })
        let releasedByDispose = Atomic<Int>(-1)
        let received = Mutex<[Bool]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            DispatchQueue.global().sync {
                // Queued for the subscriber alone (the buffer lets go of it at once).
                subject.onNext(probe.make())
                subject.onNext(nil)
                subject.dispose()
                releasedByDispose.store(probe.releases, ordering: .relaxed)
            }
        }) {
            subject.subscribe(onNext: { element in received.withAnnotatedLock { $0.append(element == nil) } })
        }
        // The replay (part of `subscribe`) is delivered; what was queued behind it is dropped.
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [true])
        XCTAssertEqual(releasedByDispose.load(ordering: .relaxed), 1, "dispose() released what was queued")
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
        subscription.dispose()
    }

    func testDisposingTheSubjectWhileASubscriberCatchesUpStopsWhatFollowsItsReplay() {
        let subject = BehaviorSubject(value: 0)
        let received = Mutex<[Int]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            DispatchQueue.global().sync {
                for element in 1...3 { subject.onNext(element) }
            }
        }) {
            subject.subscribe(onNext: { value in
                received.withAnnotatedLock { $0.append(value) }
                // From another thread, in the middle of what was queued for this subscriber.
                if value == 1 { DispatchQueue.global().sync { subject.dispose() } }
            })
        }
        // The replay (0) and the element being delivered; 2 and 3 were dropped with the subject.
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [0, 1])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
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

    func testSubscriptionsRacingSubjectDisposalGetTheReplayOrTheDisposedError() {
        let failures = Failures()
        for _ in 0..<300 {
            let subject = BehaviorSubject(value: 7)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 {
                    subject.dispose()
                    return
                }
                for _ in 0..<4 {
                    let events = Mutex<[String]>([])
                    let subscription = subject.subscribe { event in events.withAnnotatedLock { $0.append("\(event)") } }
                    let seen = events.withAnnotatedLock { $0 }
                    if seen != ["next(7)"] && !(seen.count == 1 && seen[0].hasPrefix("error(")) {
                        failures.add("subscribe saw \(seen)")
                    }
                    subscription.dispose()
                }
            }
            XCTAssertFalse(subject.hasObservers)
        }
        XCTAssertEqual(failures.list, [])
    }

    func testUndisposedSubscriptionsMadeUnderContentionGoWithTheSubject() {
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            let subject = ReplaySubject<Int>.create(bufferSize: 4)
            subject.onNext(0)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                for step in 0..<200 {
                    if index == 0 {
                        subject.onNext(step)
                    } else {
                        _ = subject.subscribe(onNext: { _ in _ = owner })
                    }
                }
            }
            XCTAssertTrue(subject.hasObservers)
        }
        XCTAssertNil(weakOwner)
    }
}

private enum InterleavingError: Swift.Error {
    case boom
}

/// Failure messages collected from several threads.
private final class Failures: Sendable {
    private let messages = Mutex<[String]>([])
    func add(_ message: String) { messages.withAnnotatedLock { if $0.count < 20 { $0.append(message) } } }
    var list: [String] { messages.withAnnotatedLock { $0 } }
}

/// Counts witnesses: objects captured by an observer's closures, so released with its sink, that
/// notice being released while the observer runs.
private final class WitnessCounter: Sendable {
    private let counts = Atomic<Int>(0)
    private let releases = Atomic<Int>(0)
    private let badReleases = Atomic<Int>(0)

    func make() -> Witness {
        counts.add(1, ordering: .relaxed)
        return Witness(counter: self)
    }

    var made: Int { counts.load(ordering: .acquiring) }
    var released: Int { releases.load(ordering: .acquiring) }
    var releasedWhileRunning: Int { badReleases.load(ordering: .acquiring) }

    /// Wraps `body` in a closure that holds a new witness.
    func watching<Value>(_ body: @escaping (Value) -> Void) -> (Value) -> Void {
        let witness = make()
        return { [witness] value in
            witness.enter()
            defer { witness.leave() }
            body(value)
        }
    }

    fileprivate func witnessReleased(whileRunning: Bool) {
        if whileRunning { badReleases.add(1, ordering: .relaxed) }
        releases.add(1, ordering: .releasing)
    }
}

private final class Witness: Sendable {
    private let counter: WitnessCounter
    private let running = Atomic<Int>(0)

    init(counter: WitnessCounter) { self.counter = counter }

    func enter() { running.add(1, ordering: .acquiringAndReleasing) }
    func leave() { running.subtract(1, ordering: .acquiringAndReleasing) }

    deinit { counter.witnessReleased(whileRunning: running.load(ordering: .acquiring) != 0) }
}

/// Strings appended from several threads.
private final class EventLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withAnnotatedLock { $0.append(entry) } }
    var list: [String] { entries.withAnnotatedLock { $0 } }
}

/// An observer of a single increasing sequence (one sender) that checks everything an observer may
/// rely on: no overlapping calls, no gap or duplicate, nothing after the end, the replay delivered
/// before `subscribe` returned, on the subscribing thread.
private final class StrictRecorder: Sendable {
    private let failures: Failures
    private let checksOrder: Bool
    private let active = Atomic<Int>(0)
    private let state = Mutex<(values: [Int], ended: String?, thread: UInt?)>(([], nil, nil))
    private let subscribingThread = currentThread()

    init(failures: Failures, checksOrder: Bool = true) {
        self.failures = failures
        self.checksOrder = checksOrder
    }

    /// An observer for this recorder whose closure holds `witness`, so that the witness is released
    /// with the subject's sink.
    func observer(witness: Witness) -> AnyObserver<Int> {
        AnyObserver { [self, witness] event in
            witness.enter()
            defer { witness.leave() }
            receive(event)
        }
    }

    func receive(_ event: Event<Int>) {
        if active.add(1, ordering: .acquiringAndReleasing).oldValue != 0 { failures.add("overlapping calls") }
        defer { active.subtract(1, ordering: .acquiringAndReleasing) }
        state.withAnnotatedLock { state in
            if state.thread == nil { state.thread = currentThread() }
            if let ended = state.ended {
                failures.add("\(event) after \(ended)")
                return
            }
            switch event {
            case .next(let value):
                if checksOrder, let last = state.values.last, value != last + 1 {
                    failures.add("gap or duplicate: \(last) then \(value)")
                }
                state.values.append(value)
            case .error(let error):
                state.ended = "error(\(error))"
            case .completed:
                state.ended = "completed"
            }
        }
    }

    /// Right after `subscribe` returned (the subject not disposed).
    func checkReplayed() {
        state.withAnnotatedLock { state in
            if state.values.isEmpty && state.ended == nil { failures.add("no replay before subscribe returned") }
            if state.thread != subscribingThread { failures.add("replay not on the subscribing thread") }
        }
    }

    /// Right after `subscribe` returned, the subject possibly disposed meanwhile.
    func checkReplayedOrDisposed() {
        state.withAnnotatedLock { state in
            if state.values.isEmpty && state.ended == nil {
                failures.add("neither replay nor error before subscribe returned")
            }
            if state.thread != subscribingThread { failures.add("replay not on the subscribing thread") }
        }
    }

    /// After the sender finished: every element up to `last`, then the end.
    func checkComplete(last: Int) {
        state.withAnnotatedLock { state in
            if state.values.last != last || state.ended == nil {
                failures.add("permanent observer ended with \(state.values.suffix(3)) \(state.ended ?? "no end")")
            }
        }
    }
}

private func currentThread() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}

/// Elements whose deinitializer calls back into a subject from another thread (`touch`) and waits
/// briefly: if the subject's lock is held during the release, the call cannot finish in time.
final class QueuedProbe: @unchecked Sendable {
    private let touch: @Sendable () -> Void
    private let counts = Mutex<(releases: Int, underLock: Int)>((0, 0))

    init(touch: @escaping @Sendable () -> Void) {
        self.touch = touch
    }

    func make() -> Tracked { Tracked(probe: self) }

    var releases: Int { counts.withAnnotatedLock { $0.releases } }
    var releasesUnderLock: Int { counts.withAnnotatedLock { $0.underLock } }

    fileprivate func released() {
        let done = DispatchSemaphore(value: 0)
        let touch = self.touch
        DispatchQueue.global().async {
            touch()
            done.signal()
        }
        let underLock = done.wait(timeout: .now() + 0.3) == .timedOut
        counts.withAnnotatedLock {
            $0.releases += 1
            if underLock { $0.underLock += 1 }
        }
    }

    final class Tracked: @unchecked Sendable {
        private let probe: QueuedProbe
        init(probe: QueuedProbe) { self.probe = probe }
        deinit { probe.released() }
    }
}
