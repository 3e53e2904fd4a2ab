import Dispatch
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// Subscribing to a subject (`SubjectCore+Subscribing.swift`; the Contracts article, "Serialization
/// and who delivers"): the replay is delivered on the subscribing thread before `subscribe` returns,
/// then the new subscriber catches up with what was sent meanwhile and joins without a gap.
/// Subscribers added or removed during a delivery, re-entrancy from inside a replay, other threads
/// sending or disposing while a subscriber catches up, and subscriptions under contention. Merged
/// from `SubjectCoreTests`, `SubjectThreadingTests` and `SubjectInterleavingTests`.
final class SubjectCoreSubscribingTests: RxLeakCheckingTestCase {
    private final class Owner: Sendable {}

    // MARK: - Subscribers added during a delivery

    func testPublishSubscriberAddedDuringDeliveryMissesTheCurrentElement() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        var late: Disposable?
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            if value == 1 { late = subject.subscribe(onNext: { log.append("c\($0)") }) }
        })
        let second = subject.subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, ["a1", "b1", "a2", "b2", "c2"])
        first.dispose()
        second.dispose()
        late?.dispose()
    }

    func testBehaviorSubscriberAddedDuringDeliveryGetsTheValueInsideSubscribe() {
        let subject = BehaviorSubject(value: 0)
        var log: [String] = []
        var late: Disposable?
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            if value == 1 {
                late = subject.subscribe(onNext: { log.append("c\($0)") })
                log.append("subscribed")
            }
        })
        let second = subject.subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        subject.onNext(2)
        // As in RxSwift: the replay is delivered on the subscribing thread before `subscribe` returns.
        XCTAssertEqual(log, ["a0", "b0", "a1", "c1", "subscribed", "b1", "a2", "b2", "c2"])
        first.dispose()
        second.dispose()
        late?.dispose()
    }

    func testReplaySubscriberAddedDuringDeliveryGetsBufferIncludingQueuedElements() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        var log: [String] = []
        var late: Disposable?
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            if value == 2 {
                // 3 is queued (and buffered) before the new subscriber joins: it reaches the new
                // subscriber once, through the replay delivered inside `subscribe`.
                subject.onNext(3)
                late = subject.subscribe(onNext: { log.append("c\($0)") })
                subject.onNext(4)
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, ["a1", "a2", "c2", "c3", "a3", "a4", "c4"])
        first.dispose()
        late?.dispose()
    }

    func testSubscriberAddedAndRemovedDuringDeliveryReceivesOnlyItsReplay() {
        let subject = BehaviorSubject(value: 0)
        var log: [String] = []
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            if value == 1 {
                let late = subject.subscribe { event in log.append("c\(event)") }
                late.dispose()
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, ["a0", "a1", "cnext(1)", "a2"])
        first.dispose()
    }

    func testOnNextFromTheInitialValueIsDeliveredAfterIt() {
        let subject = BehaviorSubject(value: 0)
        var log: [String] = []
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            if value == 0 { subject.onNext(1) }
            log.append("a\(value)-returned")
        })
        XCTAssertEqual(log, ["a0", "a0-returned", "a1", "a1-returned"])
        first.dispose()
    }

    // MARK: - Unsubscribing during a delivery

    func testObserverUnsubscribedDuringDeliveryMissesTheRestOfIt() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        var second: Disposable?
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            second?.dispose()
        })
        // An event-closure observer has no disposed check of its own: the subject must skip it.
        second = subject.subscribe { event in log.append("b\(event)") }
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, ["a1", "a2"])
        first.dispose()
    }

    func testObserverUnsubscribingItselfGetsNoQueuedElements() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        var first: Disposable?
        first = subject.subscribe { event in
            log.append("a\(event.element ?? -1)")
            if event.element == 1 {
                subject.onNext(2)
                first?.dispose()
            }
        }
        let second = subject.subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        XCTAssertEqual(log, ["a1", "b1", "b2"])
        second.dispose()
    }

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

    // MARK: - Another thread while a subscriber catches up: no element lost (deterministic, via the test hook)

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
        let subject = ReplaySubject<LockProbe.Tracked?>.create(bufferSize: 1)
        subject.onNext(nil)
        let probe = LockProbe(patience: .milliseconds(300), touch: { subject.onNext(nil) })
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

    /// A subscriber whose subscription ends inside its replay (`take(1)`) while another thread sends:
    /// what was queued for it meanwhile goes with it (``runCatchUp(_:step:while:)`` is handed the
    /// stopped observer's queue and delivers none of it), released after unlocking.
    func testASubscriberEndedInsideItsReplayReleasesWhatWasQueuedForItOutsideTheLock() {
        let subject = BehaviorSubject<LockProbe.Tracked?>(value: nil)
        let probe = LockProbe(patience: .milliseconds(300), touch: { subject.onNext(nil) })
        let received = Mutex<[Event<Bool>]>([])
        let subscription = SubjectTestHooks.whileCatchingUp({
            DispatchQueue.global().sync {
                // Queued for the subscriber alone (the subject's value is replaced at once).
                subject.onNext(probe.make())
                subject.onNext(nil)
            }
        }) {
            subject.take(1).subscribe { event in received.withAnnotatedLock { $0.append(event.map { $0 == nil }) } }
        }
        XCTAssertEqual(received.withAnnotatedLock { $0 }, [.next(true), .completed])
        XCTAssertEqual(probe.releases, 1, "what was queued for the ended subscriber was kept")
        XCTAssertEqual(probe.releasesUnderLock, 0)
        XCTAssertFalse(subject.hasObservers)
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
