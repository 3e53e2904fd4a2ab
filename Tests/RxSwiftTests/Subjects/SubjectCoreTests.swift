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

    func testBehaviorSubscriberAddedDuringDeliveryGetsTheValueAfterTheCurrentDelivery() {
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
        XCTAssertEqual(log, ["a0", "b0", "a1", "subscribed", "b1", "c1", "a2", "b2", "c2"])
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
                // subscriber once, through the replay.
                subject.onNext(3)
                late = subject.subscribe(onNext: { log.append("c\($0)") })
                subject.onNext(4)
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, ["a1", "a2", "a3", "c2", "c3", "a4", "c4"])
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

    func testSubscriberAddedAndRemovedDuringDeliveryReceivesNothing() {
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
        XCTAssertEqual(log, ["a0", "a1", "a2"])
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
}
