import Dispatch
import RxSwift
import RxTest
import XCTest

/// Re-entrancy of the drain-loop serializer shared by every subject.
final class SubjectCoreTests: RxLeakCheckingTestCase {
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

    func testDisposingTheSubjectDuringDeliveryDropsQueuedEvents() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let first = subject.subscribe(onNext: { value in
            log.append("a\(value)")
            subject.onNext(value + 1)
            subject.dispose()
        })
        subject.onNext(1)
        XCTAssertEqual(log, ["a1"])
        XCTAssertTrue(subject.isDisposed)
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

    func testDisposingAReplaySubjectReleasesItsBufferOutsideItsLock() {
        let subject = ReplaySubject<LockProbe.Tracked?>.createUnbounded()
        let probe = LockProbe { subject.onNext(nil) }
        subject.onNext(probe.make())
        subject.dispose()
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
    }

    func testDisposingASubjectReleasesQueuedElementsOutsideItsLock() {
        let subject = PublishSubject<LockProbe.Tracked?>()
        let probe = LockProbe { subject.onNext(nil) }
        let subscription = subject.subscribe(onNext: { element in
            guard element == nil else { return }
            // Queued behind the delivery in progress, then dropped by the disposal.
            subject.onNext(probe.make())
            subject.dispose()
        })
        subject.onNext(nil)
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
        subscription.dispose()
    }
}

/// Makes elements whose deinitializer calls back into a subject (`touch`) from another thread: if
/// the subject's lock is held while the element is released, that call cannot finish until the
/// deinitializer returns, and the release counts as one under the lock. (Calling from the releasing
/// thread itself would deadlock or trap instead of failing.)
final class LockProbe: @unchecked Sendable {
    private let touch: @Sendable () -> Void
    private(set) var releases = 0
    private(set) var releasesUnderLock = 0

    init(touch: @escaping () -> Void) {
        let box = UncheckedSendableBox(touch)
        self.touch = { box.value() }
    }

    func make() -> Tracked { Tracked(probe: self) }

    fileprivate func released() {
        let done = DispatchSemaphore(value: 0)
        let touch = self.touch
        DispatchQueue.global().async {
            touch()
            done.signal()
        }
        releases += 1
        if done.wait(timeout: .now() + 2) == .timedOut { releasesUnderLock += 1 }
    }

    final class Tracked: @unchecked Sendable {
        private let probe: LockProbe
        init(probe: LockProbe) { self.probe = probe }
        deinit { probe.released() }
    }
}

private struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
