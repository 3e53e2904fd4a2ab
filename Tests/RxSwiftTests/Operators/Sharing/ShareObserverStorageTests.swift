import Dispatch
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// How the shares and connections keep their observers: leaving costs O(1) (a hole left in place,
/// compacted in order once more than half are holes), so subscription order must survive removals
/// and compactions. The checks are the subjects' (``ObserverStorageChecks``); here the subscribers
/// of a share of a `PublishSubject`, which is left without observers once the last one has gone.
final class ShareObserverStorageTests: XCTestCase {
    /// Every kind of share and connection, each over a fresh source.
    static func shares() -> [TestedMulticast] {
        let kinds: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 3)", { $0.share(replay: 3) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("share(scope: .forever)", { $0.share(scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(2).refCount()", { $0.replay(2).refCount() }),
            ("multicast(BehaviorSubject).refCount()", { $0.multicast { BehaviorSubject(value: -1) }.refCount() }),
        ]
        return kinds.map { name, make in
            let source = PublishSubject<Int>()
            return TestedMulticast(
                name: name, observable: make(source.asObservable()), send: source.onNext,
                hasObservers: { source.hasObservers })
        }
    }

    func testDeliveryKeepsSubscriptionOrderAfterRemovalsAndCompactions() {
        for share in Self.shares() { ObserverStorageChecks.deliveryKeepsSubscriptionOrder(share) }
    }

    func testObserversDisposedDuringADeliveryGetNothingMore() {
        for share in Self.shares() { ObserverStorageChecks.observersDisposedDuringADeliveryGetNothingMore(share) }
    }

    func testDisposingEveryObserverInRandomOrderLeavesNone() {
        for share in Self.shares() { ObserverStorageChecks.disposingEveryObserverInRandomOrderLeavesNone(share) }
    }

    func testAConnectedPublishKeepsSubscriptionOrderAfterRemovals() {
        let source = PublishSubject<Int>()
        let published = source.publish()
        let connection = published.connect()
        ObserverStorageChecks.deliveryKeepsSubscriptionOrder(
            TestedMulticast(
                name: "publish() + connect()", observable: published, send: source.onNext,
                hasObservers: { false }))
        connection.dispose()
        XCTAssertFalse(source.hasObservers)
    }

    func testTheConnectingSubscriberLeavingFirstKeepsTheOthersInOrder() {
        // share(replay: 0 or 1) keeps its first subscriber apart: it leaves first, the others stay in
        // order and later subscribers go after them.
        let source = PublishSubject<Int>()
        let shared = source.share(replay: 1)
        var log: [Int] = []
        let subscriptions = (0..<6).map { id in shared.subscribe(onNext: { _ in log.append(id) }) }
        subscriptions[0].dispose()
        subscriptions[2].dispose()
        let late = shared.subscribe(onNext: { _ in log.append(6) })
        source.onNext(1)
        XCTAssertEqual(log, [1, 3, 4, 5, 6])
        for subscription in subscriptions + [late] { subscription.dispose() }
        XCTAssertFalse(source.hasObservers)
    }

    func testSubscribersCatchingUpAtOnceLeaveAndFinishInAnyOrder() {
        // share(replay: 1) with a latest element: A, D and C receive their replay at the same time,
        // each on its own thread. D (through take(1)) leaves the catch-up list while C is behind it,
        // then C finishes before A: entries other than the last leave the list both ways.
        let source = PublishSubject<Int>()
        let shared = source.share(replay: 1)
        let replays = ReplaysHeldOpen(["A", "D", "C"])
        let first = shared.subscribe(onNext: { replays.record("first", $0) })
        source.onNext(0)
        replays.hold([shared, shared.take(1), shared])
        // Goes to the first subscriber, and to the three catch-up lists.
        source.onNext(1)
        for index in [1, 2, 0] { replays.finish(index) }
        source.onNext(2)
        XCTAssertEqual(
            replays.received.withAnnotatedLock { $0 },
            ["first": [0, 1, 2], "A": [0, 1, 2], "D": [0], "C": [0, 1, 2]])
        first.dispose()
        replays.disposeAll()
        XCTAssertFalse(source.hasObservers)
    }

    func testTerminationReachesTheRemainingSubscribersInOrderAfterRemovals() {
        let source = PublishSubject<Int>()
        let shared = source.share()
        var log: [Int] = []
        let subscriptions = (0..<10).map { id in shared.subscribe(onCompleted: { log.append(id) }) }
        for id in [1, 2, 3, 5, 7, 8] { subscriptions[id].dispose() }
        source.onCompleted()
        XCTAssertEqual(log, [0, 4, 6, 9])
        for subscription in subscriptions { subscription.dispose() }
        XCTAssertFalse(source.hasObservers)
    }
}

/// Shares under subscribe/dispose churn on several threads while another thread delivers; run under
/// the thread sanitizer too.
final class ShareObserverStorageStressTests: XCTestCase {
    func testSubscribersComingAndGoingOnSeveralThreadsWhileAnotherDelivers() {
        for share in ShareObserverStorageTests.shares() { ObserverStorageChecks.churnWhileDelivering(share) }
    }
}
