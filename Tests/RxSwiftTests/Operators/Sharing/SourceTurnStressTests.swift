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

/// Connections and subscribers come and go on several threads while the source sends: the source
/// never has two live subscriptions from one share, and none once everything is disposed.
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
        let flavours: [(String, @Sendable (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 2)", { $0.share(replay: 2) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount() }),
        ]
        for (name, share) in flavours {
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
}
