import Dispatch
import Foundation
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

// Sources and helpers for the source-turn tests (SourceTurn*Tests.swift): a share subscribes its
// source for a new connection only once the previous connection's source subscription is over —
// disposed, or terminated by the source (a terminated subscription is over at once, even while its
// subscribe call is still running, as in RxSwift 6).

/// The five shares with a source turn.
let sourceTurnShares: [(name: String, share: @Sendable (Observable<Int>) -> Observable<Int>)] = [
    ("share()", { $0.share() }),
    ("share(replay: 1)", { $0.share(replay: 1) }),
    ("share(replay: 2)", { $0.share(replay: 2) }),
    ("publish().refCount()", { $0.publish().refCount() }),
    ("replay(1).refCount()", { $0.replay(1).refCount() }),
]

/// A source that sends `element` and completes as it is subscribed, its subscriptions counted by
/// `probe` (ended before the completion, which a terminal handler may answer by subscribing again).
func synchronousSource(sending element: Int, probedBy probe: LiveSubscriptionProbe) -> Observable<Int> {
    Observable<Int>.create { observer in
        let index = probe.subscribed()
        observer.onNext(element)
        probe.ended(index)
        observer.onCompleted()
        return Disposables.create { probe.ended(index) }
    }
}

/// Counts a source's subscriptions, how many are live, and the most that were live at once. A
/// subscription is live from its subscribe until it is disposed or the source terminates it
/// (`ended`, counted once); the source calls `ended` before it sends the terminal event, since an
/// observer may subscribe again from its terminal handler.
final class LiveSubscriptionProbe: Sendable {
    private struct State {
        var live = Set<Int>()
        var maximum = 0
        var count = 0
    }
    private let state = Mutex(State())

    /// A new subscription; returns its index (0-based).
    @discardableResult
    func subscribed() -> Int {
        state.withAnnotatedLock { state in
            let index = state.count
            state.count += 1
            state.live.insert(index)
            state.maximum = max(state.maximum, state.live.count)
            return index
        }
    }

    /// Subscription `index` is disposed or terminated; only the first call counts.
    func ended(_ index: Int) {
        _ = state.withAnnotatedLock { $0.live.remove(index) }
    }

    var liveCount: Int { state.withAnnotatedLock { $0.live.count } }
    var maximumLive: Int { state.withAnnotatedLock { $0.maximum } }
    var subscriptionCount: Int { state.withAnnotatedLock { $0.count } }

    /// A source that counts its subscriptions here and relays `feed` (which never terminates).
    func source(relaying feed: PublishSubject<Int>) -> Observable<Int> {
        Observable.create { observer in
            let index = self.subscribed()
            let relayed = feed.subscribe(observer)
            return Disposables.create {
                relayed.dispose()
                self.ended(index)
            }
        }
    }
}

/// One subscription of a `ControlledSource`: sends to the connection, and terminates it (marking it
/// ended in the probe first).
struct ControlledSubscription: @unchecked Sendable {
    let index: Int
    let sink: Sink<Int>
    let probe: LiveSubscriptionProbe

    func send(_ value: Int) { sink.next(value) }

    func complete() {
        probe.ended(index)
        sink.terminate(.completed)
    }
}

/// A source written against the internal interface, as the library's own sources (subjects) are:
/// hands the test each subscription (so that the test can terminate it, or let go of it the way a
/// released subject does, `sourceGone()`), counts live subscriptions, and can hold a
/// subscription inside `subscribe` or inside its disposal until the test lets it go.
final class ControlledSource: Observable<Int>, @unchecked Sendable {
    let probe = LiveSubscriptionProbe()
    let subscribeEntered = DispatchSemaphore(value: 0)
    let subscribeProceed = DispatchSemaphore(value: 0)
    let disposeEntered = DispatchSemaphore(value: 0)
    let disposeProceed = DispatchSemaphore(value: 0)
    /// Which subscriptions (0-based) are held in `subscribe` / in their disposal.
    private let holdSubscribe: Set<Int>
    private let holdDispose: Set<Int>
    private let sinks = Mutex<[Sink<Int>]>([])
    /// Subscriptions whose sink (the connection) was already disposed when `subscribe` began.
    let disposedAtSubscribe = Atomic<Int>(0)
    /// Called inside `subscribe` (sends, say).
    private let body: (@Sendable (ControlledSubscription) -> Void)?
    /// Microseconds each disposal takes.
    private let disposeDelay: UInt32

    init(
        holdSubscribe: Set<Int> = [], holdDispose: Set<Int> = [], disposeDelay: UInt32 = 0,
        body: (@Sendable (ControlledSubscription) -> Void)? = nil
    ) {
        self.disposeDelay = disposeDelay
        self.holdSubscribe = holdSubscribe
        self.holdDispose = holdDispose
        self.body = body
        super.init()
    }

    func subscription(_ index: Int) -> ControlledSubscription {
        ControlledSubscription(index: index, sink: sinks.withAnnotatedLock { $0[index] }, probe: probe)
    }

    override func subscribe(sink: Sink<Int>) -> Disposable {
        if let connection = sink as? OperatorSink<Int, Int>, connection.isDisposed {
            disposedAtSubscribe.wrappingAdd(1, ordering: .relaxed)
        }
        if let connection = sink as? OperatorSink<Int, Never>, connection.isDisposed {
            disposedAtSubscribe.wrappingAdd(1, ordering: .relaxed)
        }
        // The probe's index and the sink's index agree: both are taken under the sinks' lock.
        let index = sinks.withAnnotatedLock { sinks in
            sinks.append(sink)
            return self.probe.subscribed()
        }
        if holdSubscribe.contains(index) {
            subscribeEntered.signal()
            subscribeProceed.wait()
        }
        body?(ControlledSubscription(index: index, sink: sink, probe: probe))
        let probe = self.probe
        let holds = holdDispose.contains(index)
        let entered = disposeEntered
        let proceed = disposeProceed
        let delay = disposeDelay
        return Disposables.create {
            if delay > 0 { usleep(delay) }
            if holds {
                entered.signal()
                proceed.wait()
            }
            probe.ended(index)
        }
    }

    /// Forgets the sinks (they hold the connections).
    func forgetSinks() { sinks.withAnnotatedLock { $0 = [] } }
}

/// Runs `body` on a thread of its own; the group is left when it returns.
func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let done = DispatchGroup()
    done.enter()
    Thread {
        body()
        done.leave()
    }.start()
    return done
}

/// Waits (up to 2 s) for `condition`.
func waitFor(_ condition: () -> Bool) -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}
