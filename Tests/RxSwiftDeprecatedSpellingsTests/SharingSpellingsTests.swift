import RxSwift
import RxTest
import XCTest

// The sharing names of RxSwift 3–4; `share(replay:scope:)` comes from Operators/Sharing/.
final class SharingSpellingsTests: RxLeakCheckingTestCase {
    /// Two subscribers, the second arriving after the source completed: shows whether the subject
    /// outlives the connection.
    private func run(_ share: (Observable<Int>) -> Observable<Int>)
        -> ([Recorded<Event<Int>>], [Recorded<Event<Int>>], [Subscription])
    {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let ys = share(xs.asObservable())
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(ys.subscribe(first)) }
        scheduler.scheduleAt(240) { subscriptions.append(ys.subscribe(second)) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        return (first.events, second.events, xs.subscriptions)
    }

    func testShareReplayIsShareReplayForever() {
        let old = run { $0.shareReplay(1) }
        let new = run { $0.share(replay: 1, scope: .forever) }
        XCTAssertEqual(old.0, new.0)
        XCTAssertEqual(old.1, new.1)
        XCTAssertEqual(old.2, new.2)
        XCTAssertEqual(old.1, [.next(240, 2), .completed(240)])
        XCTAssertEqual(old.2, [Subscription(200, 230)])
    }

    func testShareReplayLatestWhileConnectedIsShareReplayOne() {
        let old = run { $0.shareReplayLatestWhileConnected() }
        let new = run { $0.share(replay: 1) }
        XCTAssertEqual(old.0, new.0)
        XCTAssertEqual(old.1, new.1)
        XCTAssertEqual(old.2, new.2)
        XCTAssertEqual(old.1, [.next(250, 1), .next(260, 2), .completed(270)])
        XCTAssertEqual(old.2, [Subscription(200, 230), Subscription(240, 270)])
    }
}
