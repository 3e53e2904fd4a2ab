import Dispatch
import Foundation
@_spi(RxInternal) import RxSwift
import RxTest
import Synchronization
import XCTest

/// Records what one subscriber of a shared sequence received.
private final class SharingRecorder: Sendable {
    private struct State {
        var elements: [Int] = []
        var terminals = 0
    }
    private let state = Mutex(State())

    func on(_ event: Event<Int>) {
        state.withAnnotatedLock { state in
            switch event {
            case .next(let element): state.elements.append(element)
            case .error, .completed: state.terminals += 1
            }
        }
    }

    var elements: [Int] { state.withAnnotatedLock { $0.elements } }
    var terminals: Int { state.withAnnotatedLock { $0.terminals } }
}

/// `publish().refCount()` and `replay(1).refCount()` under real threads: a subscriber is never left
/// on a connection that has ended (the subject of a connection that was disconnected or whose source
/// terminated), whatever the other subscribers and the source do at the same moment.
final class RefCountStressTests: RxLeakCheckingTestCase {
    private static let flavours: [(name: String, share: @Sendable (Observable<Int>) -> Observable<Int>)] = [
        ("publish().refCount()", { $0.publish().refCount() }),
        ("replay(1).refCount()", { $0.replay(1).refCount() }),
    ]

    /// The last subscriber leaves on one thread while a new one arrives on another: the newcomer
    /// either joins the ending connection before it ends or starts the next one, and in both cases
    /// receives what the source sends next. Before the fix 24–293 of the 3 000 rounds stranded it,
    /// for each flavour (3 runs).
    func testASubscriberArrivingWhileTheLastOneLeavesIsConnected() {
        for (name, share) in Self.flavours {
            var stranded = 0
            for _ in 0..<3_000 {
                let feed = PublishSubject<Int>()
                let shared = share(feed.asObservable())
                let leaving = shared.subscribe()
                let recorder = SharingRecorder()
                let arriving = UncheckedBox(Shared<Disposable?>(nil))
                tightRace([
                    { leaving.dispose() },
                    { arriving.value.value = shared.subscribe { recorder.on($0) } },
                ])
                feed.onNext(1)
                if recorder.elements != [1] { stranded += 1 }
                arriving.value.value?.dispose()
                XCTAssertFalse(feed.hasObservers, "\(name): the source is still subscribed")
            }
            XCTAssertEqual(stranded, 0, "\(name): rounds whose new subscriber received nothing")
        }
    }

    /// Subscribers arrive on three threads while the source completes on a fourth: each of them ends,
    /// either with the connection's completion or, arriving after it, by connecting again (to a
    /// source that is completed, so it completes at once). Before the fix 3–55 of the 18 000 late
    /// subscribers of each flavour were never terminated (3 runs).
    func testLateSubscribersRacingTheSourcesCompletionAreTerminated() {
        for (name, share) in Self.flavours {
            var unterminated = 0
            for _ in 0..<6_000 {
                let feed = PublishSubject<Int>()
                let shared = share(feed.asObservable())
                let first = SharingRecorder()
                let firstSubscription = shared.subscribe { first.on($0) }
                let late = (0..<3).map { _ in SharingRecorder() }
                let subscriptions = UncheckedBox(Shared<[Disposable]>([]))
                tightRace(
                    [{ feed.onCompleted() }]
                        + late.map { recorder in
                            {
                                let subscription = shared.subscribe { recorder.on($0) }
                                subscriptions.value.update { $0.append(subscription) }
                            }
                        }
                )
                XCTAssertEqual(first.terminals, 1, name)
                unterminated += late.filter { $0.terminals != 1 }.count
                firstSubscription.dispose()
                for subscription in subscriptions.value.value { subscription.dispose() }
                XCTAssertFalse(feed.hasObservers, "\(name): the source is still subscribed")
            }
            XCTAssertEqual(unterminated, 0, "\(name): late subscribers left without a terminal event")
        }
    }
}
