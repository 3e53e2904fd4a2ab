import Dispatch
import Foundation
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Counts a source's subscriptions, how many are live, and the most that were live at once.
final class LiveSubscriptionProbe: Sendable {
    private let live = Atomic<Int>(0)
    private let maximum = Atomic<Int>(0)
    private let subscriptions = Atomic<Int>(0)

    func subscribed() {
        subscriptions.wrappingAdd(1, ordering: .acquiringAndReleasing)
        let now = live.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        var seen = maximum.load(ordering: .acquiring)
        while now > seen {
            let (exchanged, original) = maximum.compareExchange(
                expected: seen, desired: now, ordering: .acquiringAndReleasing)
            if exchanged { break }
            seen = original
        }
    }

    func disposed() {
        live.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    var liveCount: Int { live.load(ordering: .acquiring) }
    var maximumLive: Int { maximum.load(ordering: .acquiring) }
    var subscriptionCount: Int { subscriptions.load(ordering: .acquiring) }

    /// A source that counts its subscriptions here and relays `feed`.
    func source(relaying feed: PublishSubject<Int>) -> Observable<Int> {
        Observable.create { observer in
            self.subscribed()
            let relayed = feed.subscribe(observer)
            return Disposables.create {
                relayed.dispose()
                self.disposed()
            }
        }
    }
}

/// A source whose first subscription stops inside `subscribe` until the test lets it go, having
/// handed the test its observer; later subscriptions return at once.
private final class HeldFirstSubscription: @unchecked Sendable {
    let probe = LiveSubscriptionProbe()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    private let first = Atomic<Bool>(true)
    private let heldObserver = Mutex<AnyObserver<Int>?>(nil)

    var observer: AnyObserver<Int>? { heldObserver.withAnnotatedLock { $0 } }

    /// Weak: the test's source must not keep itself alive (the leak check counts it).
    lazy var source: Observable<Int> = Observable.create { [weak self] observer in
        guard let self else { return Disposables.create() }
        self.probe.subscribed()
        if self.first.exchange(false, ordering: .acquiringAndReleasing) {
            self.heldObserver.withAnnotatedLock { $0 = observer }
            self.entered.signal()
            self.proceed.wait()
        }
        let probe = self.probe
        return Disposables.create { probe.disposed() }
    }

    /// Lets go of the observer handed to the test.
    func finish() {
        heldObserver.withAnnotatedLock { $0 = nil }
    }

    /// Runs `body` on its own thread; returns a wait for it to finish.
    func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
        let done = DispatchGroup()
        done.enter()
        Thread {
            body()
            done.leave()
        }.start()
        return done
    }
}

/// A share subscribes its source for a new connection only once the previous connection's source
/// subscription is disposed: a source that is a resource (a request, a file, a scan that fails
/// when one is running) never has two subscriptions from one share at once.
final class SourceTurnTests: RxLeakCheckingTestCase {
    /// Connection A is disposed while its source subscription is still being made on another thread;
    /// a `connect()` then makes connection B, which subscribes the source only once A's subscription
    /// is disposed (by the thread that made it). Before, B subscribed at once: two live.
    func testConnectWhileThePreviousConnectionIsStillSubscribingWaitsForItsDisposal() {
        let held = HeldFirstSubscription()
        defer { held.finish() }
        let connectable = held.source.publish()
        let subscriber = connectable.subscribe()
        let connecting = held.onThread { _ = connectable.connect() }
        held.entered.wait()
        // The connection being subscribed is the current one: this returns it.
        connectable.connect().dispose()
        let second = connectable.connect()
        XCTAssertEqual(held.probe.subscriptionCount, 1, "B subscribed while A's subscription was live")
        held.proceed.signal()
        XCTAssertEqual(connecting.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(held.probe.subscriptionCount, 2, "B never subscribed")
        XCTAssertEqual(held.probe.liveCount, 1)
        XCTAssertEqual(held.probe.maximumLive, 1)
        second.dispose()
        XCTAssertEqual(held.probe.liveCount, 0)
        subscriber.dispose()
    }

    /// A connection disposed while it waits for its turn never subscribes the source.
    func testAConnectionDisposedBeforeItsTurnNeverSubscribes() {
        let held = HeldFirstSubscription()
        defer { held.finish() }
        let connectable = held.source.replay(1)
        let connecting = held.onThread { _ = connectable.connect() }
        held.entered.wait()
        connectable.connect().dispose()
        connectable.connect().dispose()
        held.proceed.signal()
        XCTAssertEqual(connecting.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(held.probe.subscriptionCount, 1)
        XCTAssertEqual(held.probe.liveCount, 0)
    }

    private static let shares: [(name: String, share: @Sendable (Observable<Int>) -> Observable<Int>)] = [
        ("publish().refCount()", { $0.publish().refCount() }),
        ("replay(1).refCount()", { $0.replay(1).refCount() }),
        ("share()", { $0.share() }),
        ("share(replay: 1)", { $0.share(replay: 1) }),
        ("share(replay: 2)", { $0.share(replay: 2) }),
    ]

    /// The source completes (from another thread) while the connection's subscription is still
    /// being made; a subscriber arriving next starts a connection, which subscribes the source once
    /// the first subscription is disposed, and receives what it sends.
    func testASubscriberAfterTheSourceCompletedWhileSubscribingWaitsForTheOldSubscription() {
        for (name, share) in Self.shares {
            let held = HeldFirstSubscription()
            defer { held.finish() }
            defer { held.finish() }
            let shared = share(held.source)
            let first = Shared<[Event<Int>]>([])
            let connecting = held.onThread {
                _ = shared.subscribe { event in first.update { $0.append(event) } }
            }
            held.entered.wait()
            held.observer?.onCompleted()
            let second = Shared<[Event<Int>]>([])
            let subscription = shared.subscribe { event in second.update { $0.append(event) } }
            XCTAssertEqual(held.probe.subscriptionCount, 1, "\(name): subscribed while the first was live")
            held.proceed.signal()
            XCTAssertEqual(connecting.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(first.value, [.completed], name)
            XCTAssertEqual(held.probe.subscriptionCount, 2, "\(name): the second connection never subscribed")
            XCTAssertEqual(held.probe.maximumLive, 1, name)
            XCTAssertEqual(held.probe.liveCount, 1, name)
            subscription.dispose()
            XCTAssertEqual(held.probe.liveCount, 0, name)
        }
    }

    /// A subscriber resubscribing from its terminal handler, while the source that completed is
    /// still subscribing (a synchronous source): the new connection subscribes the source once the
    /// old subscription is disposed, on the same thread, and the subscriber receives its events.
    func testResubscribingFromTheTerminalHandlerOfASynchronousSourceWaitsForTheOldSubscription() {
        for (name, share) in Self.shares {
            let probe = LiveSubscriptionProbe()
            let source = Observable<Int>.create { observer in
                probe.subscribed()
                observer.onNext(probe.subscriptionCount)
                if probe.subscriptionCount == 1 { observer.onCompleted() }
                return Disposables.create { probe.disposed() }
            }
            let shared = share(source)
            let events = Shared<[Event<Int>]>([])
            let again = DisposableBox()
            let first = shared.subscribe { event in
                events.update { $0.append(event) }
                if event.isCompleted {
                    again.set(shared.subscribe { event in events.update { $0.append(event) } })
                }
            }
            XCTAssertEqual(events.value, [.next(1), .completed, .next(2)], name)
            XCTAssertEqual(probe.maximumLive, 1, name)
            XCTAssertEqual(probe.liveCount, 1, name)
            again.dispose()
            first.dispose()
            XCTAssertEqual(probe.liveCount, 0, name)
        }
    }
}
