import Dispatch
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// How a subject keeps its observers: unsubscribing leaves the disposed entry in place, and the array
/// is compacted, in order, once more than half of it has left (O(1) amortized per departure).
final class SubjectObserverStorageTests: XCTestCase {
    /// Fresh subjects of each kind whose observers all receive every element.
    static func subjects() -> [TestedMulticast] {
        let publish = PublishSubject<Int>()
        let behavior = BehaviorSubject(value: -1)
        let replay = ReplaySubject<Int>.create(bufferSize: 1)
        return [
            TestedMulticast(
                name: "PublishSubject", observable: publish.asObservable(), send: publish.onNext,
                hasObservers: { publish.hasObservers }),
            TestedMulticast(
                name: "BehaviorSubject", observable: behavior.asObservable(), send: behavior.onNext,
                hasObservers: { behavior.hasObservers }),
            TestedMulticast(
                name: "ReplaySubject", observable: replay.asObservable(), send: replay.onNext,
                hasObservers: { replay.hasObservers }),
        ]
    }

    func testDeliveryKeepsSubscriptionOrderAfterRemovalsAndCompactions() {
        for subject in Self.subjects() { ObserverStorageChecks.deliveryKeepsSubscriptionOrder(subject) }
    }

    func testObserversDisposedDuringADeliveryGetNothingMore() {
        for subject in Self.subjects() { ObserverStorageChecks.observersDisposedDuringADeliveryGetNothingMore(subject) }
    }

    func testDisposingEveryObserverInRandomOrderLeavesNone() {
        for subject in Self.subjects() { ObserverStorageChecks.disposingEveryObserverInRandomOrderLeavesNone(subject) }
    }

    func testTerminationAfterRemovalsReachesTheRemainingObserversInOrder() {
        let subject = PublishSubject<Int>()
        let log = Mutex<[Int]>([])
        let subscriptions = (0..<10).map { id in
            subject.subscribe(onCompleted: { log.withAnnotatedLock { $0.append(id) } })
        }
        for id in [0, 2, 3, 4, 6, 8] { subscriptions[id].dispose() }
        subject.onCompleted()
        XCTAssertEqual(log.withAnnotatedLock { $0 }, [1, 5, 7, 9])
        // Disposing after the end changes nothing, and the subject is empty.
        for subscription in subscriptions { subscription.dispose() }
        XCTAssertFalse(subject.hasObservers)
    }

    func testAsyncSubjectCompletesTheRemainingObserversInOrder() {
        let subject = AsyncSubject<Int>()
        let log = Mutex<[Int]>([])
        let subscriptions = (0..<40).map { id in
            subject.subscribe(onNext: { _ in log.withAnnotatedLock { $0.append(id) } })
        }
        for id in stride(from: 0, to: 40, by: 3) { subscriptions[id].dispose() }
        for id in 20..<30 { subscriptions[id].dispose() }
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(log.withAnnotatedLock { $0 }, (0..<40).filter { $0 % 3 != 0 && !(20..<30).contains($0) })
    }

    func testSubscribersCatchingUpAtOnceFinishInAnyOrder() {
        // Three subscribers receive their replays at the same time, each on its own thread, and finish
        // in the order B, A, C: the catch-up list loses entries other than its last.
        let subject = BehaviorSubject(value: 0)
        let replays = ReplaysHeldOpen(["A", "B", "C"])
        replays.hold(Array(repeating: subject.asObservable(), count: 3))
        // Goes to the three catch-up lists: nobody has joined yet.
        subject.onNext(1)
        for index in [1, 0, 2] { replays.finish(index) }
        subject.onNext(2)
        XCTAssertEqual(replays.received.withAnnotatedLock { $0 }, ["A": [0, 1, 2], "B": [0, 1, 2], "C": [0, 1, 2]])
        replays.disposeAll()
        XCTAssertFalse(subject.hasObservers)
    }
}

/// Subjects under subscribe/dispose churn on several threads while another thread delivers; run under
/// the thread sanitizer too.
final class SubjectObserverStorageStressTests: XCTestCase {
    func testSubscribersComingAndGoingOnSeveralThreadsWhileAnotherDelivers() {
        for subject in SubjectObserverStorageTests.subjects() { ObserverStorageChecks.churnWhileDelivering(subject) }
    }
}
