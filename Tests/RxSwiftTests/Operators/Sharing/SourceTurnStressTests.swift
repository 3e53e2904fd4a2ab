import Dispatch
import Foundation
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Handles made on some threads and disposed on another.
private final class HandleQueue: Sendable {
    private let handles = Mutex<[Disposable]>([])

    func append(_ handle: Disposable) {
        handles.withAnnotatedLock { $0.append(handle) }
    }

    func takeAll() -> [Disposable] {
        handles.withAnnotatedLock { taken in
            defer { taken = [] }
            return taken
        }
    }
}

/// Connections and subscribers come and go on several threads while the source sends and terminates
/// subscriptions: the source never has two live subscriptions from one share (a subscription is live
/// until it is disposed or the source terminates it), none once everything is disposed, and a last
/// subscriber or `connect()` always reaches the source.
final class SourceTurnStressTests: RxLeakCheckingTestCase {
    private static let rounds = 300
    private static let operations = 40

    /// Two threads call `connect()`, one disposes the connections they got, one sends. Before, 4 runs
    /// of 40 of a longer round found two live subscriptions.
    func testConnectRacingDisconnectNeverSubscribesTheSourceTwice() {
        let flavours: [(String, @Sendable (Observable<Int>) -> ConnectableObservable<Int>)] = [
            ("publish()", { $0.publish() }),
            ("replay(1)", { $0.replay(1) }),
        ]
        for (name, makeConnectable) in flavours {
            let probe = LiveSubscriptionProbe()
            for _ in 0..<Self.rounds {
                let feed = PublishSubject<Int>()
                let connectable = makeConnectable(probe.source(relaying: feed))
                let subscriber = connectable.subscribe()
                let handles = HandleQueue()
                let connect: @Sendable () -> Void = {
                    for _ in 0..<Self.operations { handles.append(connectable.connect()) }
                }
                tightRace([
                    connect, connect,
                    {
                        for _ in 0..<Self.operations { handles.takeAll().forEach { $0.dispose() } }
                    },
                    {
                        for value in 0..<Self.operations { feed.onNext(value) }
                    },
                ])
                handles.takeAll().forEach { $0.dispose() }
                subscriber.dispose()
                XCTAssertEqual(probe.liveCount, 0, "\(name): a source subscription outlived its connection")
            }
            XCTAssertEqual(probe.maximumLive, 1, "\(name): two live source subscriptions at once")
        }
    }

    /// Two threads subscribe, one disposes the subscriptions they made, one sends.
    func testSubscribersComingAndGoingNeverSubscribeTheSourceTwice() {
        for (name, share) in sourceTurnShares {
            let probe = LiveSubscriptionProbe()
            for _ in 0..<Self.rounds {
                let feed = PublishSubject<Int>()
                let shared = share(probe.source(relaying: feed))
                let handles = HandleQueue()
                let subscribe: @Sendable () -> Void = {
                    for _ in 0..<Self.operations { handles.append(shared.subscribe()) }
                }
                tightRace([
                    subscribe, subscribe,
                    {
                        for _ in 0..<Self.operations { handles.takeAll().forEach { $0.dispose() } }
                    },
                    {
                        for value in 0..<Self.operations { feed.onNext(value) }
                    },
                ])
                handles.takeAll().forEach { $0.dispose() }
                XCTAssertEqual(probe.liveCount, 0, "\(name): a source subscription outlived its subscribers")
            }
            XCTAssertEqual(probe.maximumLive, 1, "\(name): two live source subscriptions at once")
        }
    }

    /// Subscribers come and go on two threads, a third disposes them, and the source completes some
    /// subscriptions synchronously inside `subscribe` and others from a fourth thread, while
    /// subscribers resubscribe from their terminal handlers.
    func testEverythingAtOnceStress() {
        for (name, share) in sourceTurnShares {
            var maximum = 0
            for round in 0..<60 {
                let source = ControlledSource(body: { subscription in
                    if (subscription.index + round) % 3 == 0 {
                        subscription.send(subscription.index)
                        subscription.complete()
                    }
                })
                let shared = share(source)
                let handles = HandleQueue()
                let again = Atomic<Int>(0)
                let subscribe: @Sendable () -> Void = {
                    for _ in 0..<30 {
                        let handle = shared.subscribe(onCompleted: {
                            if again.wrappingAdd(1, ordering: .relaxed).oldValue < 20 {
                                handles.append(shared.subscribe())
                            }
                        })
                        handles.append(handle)
                    }
                }
                tightRace([
                    subscribe, subscribe,
                    { for _ in 0..<30 { handles.takeAll().forEach { $0.dispose() } } },
                    {
                        // Completes, from here, subscriptions the source did not complete itself
                        // (each once: a source's calls are serialized per subscription).
                        var completed = Set<Int>()
                        for _ in 0..<30 {
                            let count = source.probe.subscriptionCount
                            for index in 0..<count
                            where (index + round) % 3 != 0 && index % 2 == 0 && !completed.contains(index) {
                                completed.insert(index)
                                source.subscription(index).complete()
                            }
                            usleep(20)
                        }
                    },
                ])
                maximum = max(
                    maximum,
                    finish(name: "\(name) round \(round)", source: source, handles: handles) {
                        shared.subscribe()
                    })
            }
            XCTAssertEqual(maximum, 1, "\(name): two live subscriptions")
        }
    }

    /// Slow subscriptions (the source sleeps inside `subscribe`), so that connections wait behind one
    /// still subscribing, end while waiting, and are replaced; three threads subscribe and leave at
    /// once, and some subscriptions complete synchronously.
    func testSlowSubscriptionsWithSubscribersComingAndGoingStress() {
        for (name, share) in sourceTurnShares {
            var maximum = 0
            for round in 0..<100 {
                let source = ControlledSource(
                    disposeDelay: 30,
                    body: { subscription in
                        usleep(UInt32((subscription.index * 7 + round) % 5) * 20)
                        if (subscription.index + round) % 4 == 0 {
                            subscription.send(subscription.index)
                            subscription.complete()
                        }
                    })
                let shared = share(source)
                let churn: @Sendable () -> Void = {
                    for step in 0..<25 {
                        let handle = shared.subscribe()
                        if step % 3 == 0 { usleep(10) }
                        handle.dispose()
                    }
                }
                tightRace([churn, churn, churn])
                maximum = max(
                    maximum,
                    finish(name: "\(name) round \(round)", source: source, handles: HandleQueue()) {
                        shared.subscribe()
                    })
            }
            XCTAssertEqual(maximum, 1, "\(name): two live subscriptions")
        }
    }

    /// `refCount()` and direct `connect()` calls on one connectable, from several threads, with slow
    /// subscriptions, some of which the source completes.
    func testRefCountAndDirectConnectMixedStress() {
        for flavour in ["publish", "replay"] {
            var maximum = 0
            for round in 0..<100 {
                let source = ControlledSource(
                    disposeDelay: 30,
                    body: { subscription in
                        usleep(UInt32((subscription.index + round) % 4) * 20)
                        if (subscription.index + round) % 5 == 0 { subscription.complete() }
                    })
                let connectable = flavour == "publish" ? source.publish() : source.replay(1)
                let counted = connectable.refCount()
                let handles = HandleQueue()
                tightRace([
                    { for _ in 0..<25 { counted.subscribe().dispose() } },
                    { for _ in 0..<25 { handles.append(counted.subscribe()) } },
                    { for _ in 0..<25 { connectable.connect().dispose() } },
                    { for _ in 0..<25 { handles.append(connectable.connect()) } },
                ])
                maximum = max(
                    maximum,
                    finish(name: "\(flavour) round \(round)", source: source, handles: handles) {
                        connectable.connect()
                    })
            }
            XCTAssertEqual(maximum, 1, "\(flavour): two live subscriptions")
        }
    }

    /// Disposes what is left, checks that nothing stays live and that `last` still reaches the
    /// source; returns the most subscriptions that were live at once.
    private func finish(
        name: String, source: ControlledSource, handles: HandleQueue, last: () -> Disposable
    ) -> Int {
        var rest = handles.takeAll()
        while !rest.isEmpty {
            rest.forEach { $0.dispose() }
            rest = handles.takeAll()
        }
        XCTAssertTrue(waitFor { source.probe.liveCount == 0 }, "\(name): left live")
        let before = source.probe.subscriptionCount
        let lastHandle = last()
        XCTAssertTrue(
            waitFor { source.probe.subscriptionCount > before }, "\(name): the last one never reached the source")
        lastHandle.dispose()
        XCTAssertTrue(waitFor { source.probe.liveCount == 0 }, "\(name): the last one left live")
        source.forgetSinks()
        return source.probe.maximumLive
    }
}
