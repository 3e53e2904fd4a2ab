import Dispatch
import Foundation
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// A share subscribes its source for a new connection only once the previous connection's source
/// subscription is over: disposed (a disposal that began while the source's subscribe call was still
/// running counts once that call has returned and its subscription is disposed), or terminated by the
/// source (at once, even while its subscribe call is still running). A source that is a resource (a
/// request, a file, a scan that fails when one is running) never has two live subscriptions from one
/// share. Sources and helpers: Support/SourceTurnTestSupport.swift.
final class SourceTurnTests: RxLeakCheckingTestCase {

    // MARK: - A connection waits for a disposed subscription still being made

    /// A (subscribing on another thread) is disposed, B and C are connected and disposed while they
    /// wait, D is connected: B and C never subscribe; D subscribes once, after A's subscription is
    /// stored and disposed (by the thread that made it); a later connect still gets the source.
    func testOnlyTheLastQueuedConnectionSubscribes() {
        for flavour in ["publish", "replay"] {
            let source = ControlledSource(holdSubscribe: [0])
            let connectable = flavour == "publish" ? source.publish() : source.replay(1)
            let subscriber = connectable.subscribe()
            let connecting = onThread { _ = connectable.connect() }
            XCTAssertEqual(source.subscribeEntered.wait(timeout: .now() + 5), .success)
            connectable.connect().dispose()  // A, still subscribing: connect() returns it
            connectable.connect().dispose()  // B, waiting
            connectable.connect().dispose()  // C, waiting
            let last = connectable.connect()  // D, waiting
            XCTAssertEqual(source.probe.subscriptionCount, 1, "\(flavour): subscribed while A was live")
            source.subscribeProceed.signal()
            XCTAssertEqual(connecting.wait(timeout: .now() + 5), .success, flavour)
            XCTAssertEqual(source.probe.subscriptionCount, 2, "\(flavour): D did not subscribe exactly once")
            XCTAssertEqual(source.disposedAtSubscribe.load(ordering: .relaxed), 0, flavour)
            XCTAssertEqual(source.probe.liveCount, 1, flavour)
            XCTAssertEqual(source.probe.maximumLive, 1, flavour)
            last.dispose()
            XCTAssertEqual(source.probe.liveCount, 0, flavour)
            let again = connectable.connect()
            XCTAssertEqual(source.probe.subscriptionCount, 3, "\(flavour): a later connect() never subscribed")
            again.dispose()
            subscriber.dispose()
            source.forgetSinks()
        }
    }

    /// Everything re-entrant, inside the source's own `subscribe` on one thread: A's handle is
    /// disposed, B is connected and disposed, C is connected; C subscribes once A's subscribe returns.
    func testReentrantConnectAndDisposeInsideSubscribe() {
        let connectableBox = Shared<ConnectableObservable<Int>?>(nil)
        let handles = Shared<[Disposable]>([])
        let source = ControlledSource(body: { subscription in
            guard subscription.index == 0, let connectable = connectableBox.value else { return }
            connectable.connect().dispose()  // the current one: A
            connectable.connect().dispose()  // B
            handles.update { $0.append(connectable.connect()) }  // C
        })
        let connectable = source.publish()
        connectableBox.value = connectable
        let subscriber = connectable.subscribe()
        _ = connectable.connect()
        XCTAssertEqual(source.probe.subscriptionCount, 2)
        XCTAssertEqual(source.probe.maximumLive, 1)
        XCTAssertEqual(source.probe.liveCount, 1)
        XCTAssertEqual(source.disposedAtSubscribe.load(ordering: .relaxed), 0)
        handles.value.forEach { $0.dispose() }
        XCTAssertEqual(source.probe.liveCount, 0)
        subscriber.dispose()
        connectableBox.value = nil
        source.forgetSinks()
    }

    /// A waiting connection disposed before its turn never subscribes and lets go of the source
    /// (and the subject it was made on), even while its disposed handle is kept.
    func testADisposedWaitingConnectionLetsGoOfTheSource() {
        weak var weakSubject: PublishSubject<Int>?
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        var keptHandle: Disposable?
        var connecting: DispatchGroup?
        do {
            let subject = PublishSubject<Int>()
            weakSubject = subject
            let first = Atomic<Bool>(true)
            let source = Observable<Int>.create { observer in
                if first.exchange(false, ordering: .relaxed) {
                    entered.signal()
                    proceed.wait()
                }
                return subject.subscribe(observer)
            }
            let connectable = source.publish()
            let box = UncheckedBox(connectable)
            connecting = onThread { _ = box.value.connect() }
            XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)
            connectable.connect().dispose()
            let waiting = connectable.connect()
            waiting.dispose()
            keptHandle = waiting
        }
        proceed.signal()
        XCTAssertEqual(connecting?.wait(timeout: .now() + 5), .success)
        XCTAssertTrue(waitFor { weakSubject == nil }, "a disposed handle that never subscribed still holds the source")
        keptHandle = nil
        XCTAssertNil(weakSubject)
        _ = keptHandle
    }

    /// Re-entrant, from the source's own disposal: the source's dispose closure subscribes the share
    /// and leaves again, then subscribes for good. The subscription made last reaches the source once
    /// the old one is disposed; the one that left never does; nothing is left waiting.
    func testSubscribingFromTheSourcesDisposal() {
        for (name, share) in sourceTurnShares {
            let probe = LiveSubscriptionProbe()
            let sharedBox = Shared<Observable<Int>?>(nil)
            let kept = DisposableBox()
            let disposals = Atomic<Int>(0)
            let source = Observable<Int>.create { observer in
                let index = probe.subscribed()
                observer.onNext(index)
                return Disposables.create {
                    if disposals.wrappingAdd(1, ordering: .relaxed).oldValue == 0, let shared = sharedBox.value {
                        shared.subscribe().dispose()
                        kept.set(shared.subscribe())
                    }
                    probe.ended(index)
                }
            }
            let shared = share(source)
            sharedBox.value = shared
            shared.subscribe().dispose()
            XCTAssertEqual(probe.maximumLive, 1, name)
            XCTAssertEqual(probe.liveCount, 1, "\(name): the subscription made from the disposal is not live")
            kept.dispose()
            XCTAssertEqual(probe.liveCount, 0, name)
            let again = shared.subscribe()
            XCTAssertEqual(probe.liveCount, 1, "\(name): a later subscriber never reached the source")
            again.dispose()
            sharedBox.value = nil
        }
    }

    // MARK: - A subscription the source terminated is over at once

    /// The source completes connection A (from another thread) while A's subscribe is still running;
    /// a subscriber arriving next starts connection B, which subscribes the source at once (A is
    /// over). With `share(...)` the subscriber receives the source's synchronous element inside its
    /// `subscribe`. With `refCount()` the connects and disconnects run in order on the thread that
    /// drains them — the one still inside A's `connect()` — so B is subscribed there once A's
    /// `connect()` returns, and the element arrives on that thread, after `subscribe` returned.
    func testASubscriberAfterTheSourceCompletedASubscribingConnectionIsNotHeldBack() {
        for (name, share) in sourceTurnShares {
            let isRefCount = name.hasSuffix("refCount()")
            let source = ControlledSource(
                holdSubscribe: [0],
                body: { subscription in
                    if subscription.index == 1 { subscription.send(42) }
                })
            let shared = share(source)
            let first = Shared<[Event<Int>]>([])
            let connecting = onThread { _ = shared.subscribe { event in first.update { $0.append(event) } } }
            XCTAssertEqual(source.subscribeEntered.wait(timeout: .now() + 5), .success, name)
            source.subscription(0).complete()
            let subscribingThread = Thread.current
            let received = Shared<[(value: Int, onSubscribingThread: Bool)]>([])
            let subscription = shared.subscribe(onNext: { value in
                received.update { $0.append((value, Thread.current == subscribingThread)) }
            })
            let receivedInsideSubscribe = received.value.map(\.value)
            XCTAssertEqual(source.probe.subscriptionCount, isRefCount ? 1 : 2, name)
            source.subscribeProceed.signal()
            XCTAssertEqual(connecting.wait(timeout: .now() + 5), .success, name)
            XCTAssertEqual(first.value, [.completed], name)
            XCTAssertEqual(receivedInsideSubscribe, isRefCount ? [] : [42], name)
            XCTAssertEqual(received.value.map(\.value), [42], name)
            XCTAssertEqual(received.value.map(\.onSubscribingThread), [!isRefCount], name)
            XCTAssertEqual(source.probe.subscriptionCount, 2, name)
            XCTAssertEqual(source.probe.maximumLive, 1, name)
            XCTAssertEqual(source.probe.liveCount, 1, name)
            subscription.dispose()
            XCTAssertEqual(source.probe.liveCount, 0, name)
            source.forgetSinks()
        }
    }

    /// The same with `connect()`: A, still subscribing, is completed by the source; the next
    /// `connect()` subscribes at once, and disposing it leaves nothing live or waiting.
    func testConnectAfterTheSourceCompletedASubscribingConnectionSubscribesAtOnce() {
        for flavour in ["publish", "replay"] {
            let source = ControlledSource(holdSubscribe: [0])
            let connectable = flavour == "publish" ? source.publish() : source.replay(1)
            let events = Shared<[Event<Int>]>([])
            let subscriber = connectable.subscribe { event in events.update { $0.append(event) } }
            let connecting = onThread { _ = connectable.connect() }
            XCTAssertEqual(source.subscribeEntered.wait(timeout: .now() + 5), .success, flavour)
            source.subscription(0).send(1)
            source.subscription(0).complete()
            let next = connectable.connect()
            XCTAssertEqual(source.probe.subscriptionCount, 2, "\(flavour): held back by a terminated subscription")
            XCTAssertEqual(source.probe.liveCount, 1, flavour)
            next.dispose()
            XCTAssertEqual(source.probe.liveCount, 0, flavour)
            source.subscribeProceed.signal()
            XCTAssertEqual(connecting.wait(timeout: .now() + 5), .success, flavour)
            XCTAssertEqual(events.value, [.next(1), .completed], flavour)
            XCTAssertEqual(source.probe.maximumLive, 1, flavour)
            let later = connectable.connect()
            XCTAssertEqual(source.probe.subscriptionCount, 3, "\(flavour): a later connect() never subscribed")
            later.dispose()
            XCTAssertEqual(source.probe.liveCount, 0, flavour)
            subscriber.dispose()
            source.forgetSinks()
        }
    }

    /// The first connection ends (`take(until:)` completes it) while its subscribe is still running
    /// on another thread; a second subscriber, never disposed, connects the subjects the source was
    /// made on. The test then drops the share and the subjects: they are released, and the
    /// subscription with them (no cycle survives; the leak check counts the sinks).
    func testAnUndisposedConnectionOnADroppedSubjectIsReleased() {
        var startTotal = Resources.total
        for (name, share) in sourceTurnShares {
            weak var weakSubject: PublishSubject<Int>?
            let entered = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            var connecting: DispatchGroup?
            do {
                let subject = PublishSubject<Int>()
                let ender = PublishSubject<Void>()
                weakSubject = subject
                let first = Atomic<Bool>(true)
                // take(until:) subscribes `ender` first, then the held source.
                let shared = share(
                    Observable<Int>.deferred {
                        if first.exchange(false, ordering: .relaxed) {
                            entered.signal()
                            proceed.wait()
                        }
                        return subject
                    }.take(until: ender))
                let box = UncheckedBox(shared)
                connecting = onThread { _ = box.value.subscribe() }
                XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, name)
                ender.onNext(())
                _ = shared.subscribe()
            }
            proceed.signal()
            XCTAssertEqual(connecting?.wait(timeout: .now() + 5), .success, name)
            XCTAssertTrue(waitFor { weakSubject == nil }, "\(name): the subject was never released")
            let settled = waitFor { Resources.total == startTotal }
            XCTAssertTrue(settled, "\(name): \(Resources.total - startTotal) resources still alive")
            startTotal = Resources.total
        }
    }
}
