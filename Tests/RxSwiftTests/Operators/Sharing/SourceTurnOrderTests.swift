import Foundation
import RxBlocking
import RxTest
import Synchronization
import XCTest

@_spi(RxInternal) @testable import RxSwift

/// Synchronous sources, against RxSwift 6.9: a subscription the source terminated is over at once,
/// so an observer that subscribes again from its terminal handler gets a new connection that
/// subscribes the source at once, on the same thread, before the outer `subscribe` returns (outputs
/// recorded by running the same code against RxSwift 6.9).
final class SourceTurnOrderTests: RxLeakCheckingTestCase {

    /// A subscriber resubscribing from its completion handler receives the new connection's events
    /// inside that `subscribe` call; the two source subscriptions never overlap (the first is over
    /// once the source completed it). RxSwift 6.9: a next(1), a completed, b next(1), b completed,
    /// after resubscribe.
    func testResubscriptionFromTheCompletionHandlerDeliversBeforeSubscribeReturns() {
        for (name, share) in sourceTurnShares {
            let probe = LiveSubscriptionProbe()
            let source = synchronousSource(sending: 1, probedBy: probe)
            let log = Shared<[String]>([])
            let shared = share(source)
            let inner = DisposableBox()
            let outer = shared.subscribe { event in
                log.update { $0.append("a \(event)") }
                if event.isCompleted {
                    inner.set(shared.subscribe { event in log.update { $0.append("b \(event)") } })
                    log.update { $0.append("after resubscribe") }
                }
            }
            XCTAssertEqual(
                log.value,
                ["a next(1)", "a completed", "b next(1)", "b completed", "after resubscribe"], name)
            XCTAssertEqual(probe.subscriptionCount, 2, name)
            XCTAssertEqual(probe.maximumLive, 1, name)
            inner.dispose()
            outer.dispose()
            XCTAssertEqual(probe.liveCount, 0, name)
        }
    }

    /// A subscription made and disposed inside the completion handler receives the synchronous
    /// source's events (RxSwift 6.9: next(1), next(2), completed).
    func testSubscriptionMadeAndDisposedInTheCompletionHandlerReceivesTheSynchronousSource() {
        for (name, share) in sourceTurnShares {
            let received = Shared<[Event<Int>]>([])
            let shared = share(
                Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onNext(2)
                    observer.onCompleted()
                    return Disposables.create()
                })
            let outer = shared.subscribe { event in
                if event.isCompleted {
                    shared.subscribe { event in received.update { $0.append(event) } }.dispose()
                }
            }
            XCTAssertEqual(received.value, [.next(1), .next(2), .completed], name)
            outer.dispose()
        }
    }

    /// A blocking read inside the completion handler of a synchronous share gets the element (the
    /// new connection does not wait for the handler's thread, which waits for it).
    func testToBlockingInsideTheCompletionHandlerOfASynchronousShare() {
        for (name, share) in sourceTurnShares {
            let result = Shared<Int?>(nil)
            let shared = share(
                Observable<Int>.create { observer in
                    observer.onNext(7)
                    observer.onCompleted()
                    return Disposables.create()
                })
            let outer = shared.subscribe(onCompleted: {
                result.value = try? shared.toBlocking(timeout: 1).first()
            })
            XCTAssertEqual(result.value, 7, "\(name): the blocking read never got the element")
            outer.dispose()
        }
    }

    /// Virtual time: a subscriber resubscribing from its completion handler. The new connection
    /// subscribes at the same tick as in RxSwift.
    func testResubscriptionFromTheCompletionHandlerInVirtualTime() {
        for (name, share) in sourceTurnShares {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
            let shared = share(xs.asObservable())
            let a = scheduler.createObserver(Int.self)
            let b = scheduler.createObserver(Int.self)
            let inner = DisposableBox()
            let outer = DisposableBox()
            scheduler.scheduleAt(200) {
                outer.set(
                    shared.subscribe { event in
                        a.on(event)
                        if event.isCompleted { inner.set(shared.subscribe(b)) }
                    })
            }
            scheduler.scheduleAt(1000) {
                inner.dispose()
                outer.dispose()
            }
            scheduler.start()
            XCTAssertEqual(a.events, [.next(210, 1), .next(220, 2), .completed(230)], name)
            XCTAssertEqual(b.events, [.next(240, 1), .next(250, 2), .completed(260)], name)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(230, 260)], name)
        }
    }

    /// A chain of resubscriptions from terminal handlers (synchronous source): each new connection
    /// subscribes the source at once, inside the previous completion handler, so the chain recurses —
    /// as in RxSwift, where each level nests a few dozen frames. The depth is kept at 200, which
    /// RxSwift also survives; 20 000 levels overflow the stack (SIGSEGV) here as they would there.
    func testChainOfResubscriptionsFromTerminalHandlers() {
        let depth = 200
        for (name, share) in sourceTurnShares {
            let probe = LiveSubscriptionProbe()
            let source = synchronousSource(sending: 1, probedBy: probe)
            let shared = share(source)
            let completions = Atomic<Int>(0)
            let handles = Shared<[Disposable]>([])
            @Sendable func subscribeAgain() {
                let handle = shared.subscribe(onCompleted: {
                    if completions.wrappingAdd(1, ordering: .relaxed).newValue < depth { subscribeAgain() }
                })
                handles.update { $0.append(handle) }
            }
            subscribeAgain()
            XCTAssertEqual(completions.load(ordering: .relaxed), depth, name)
            XCTAssertEqual(probe.subscriptionCount, depth, name)
            XCTAssertEqual(probe.maximumLive, 1, name)
            handles.update { $0 }.forEach { $0.dispose() }
            handles.update { $0 = [] }
            XCTAssertEqual(probe.liveCount, 0, name)
        }
    }
}
