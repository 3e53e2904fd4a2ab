import RxRelay
import RxSwift
import RxTest
import XCTest

final class ReplayRelayTests: RxLeakCheckingTestCase {
    private func replayScenario(_ relay: ReplayRelay<Int>) -> [Recorded<Event<Int>>] {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        for value in 1...4 {
            scheduler.scheduleAt(200 + 10 * value) { relay.accept(value) }
        }
        scheduler.scheduleAt(300) { subscription = relay.subscribe(observer) }
        scheduler.scheduleAt(310) { relay.accept(5) }
        scheduler.scheduleAt(400) { subscription?.dispose() }
        scheduler.scheduleAt(410) { relay.accept(6) }
        scheduler.start()
        return observer.events
    }

    func testBufferOfTwoReplaysTheLastTwo() {
        XCTAssertEqual(replayScenario(.create(bufferSize: 2)), [.next(300, 3), .next(300, 4), .next(310, 5)])
    }

    func testBufferOfZeroReplaysNothing() {
        XCTAssertEqual(replayScenario(.create(bufferSize: 0)), [.next(310, 5)])
    }

    func testUnboundReplaysEverything() {
        XCTAssertEqual(
            replayScenario(.createUnbound()),
            [.next(300, 1), .next(300, 2), .next(300, 3), .next(300, 4), .next(310, 5)])
    }

    func testBindForwardsElementsAndIgnoresCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let relay = ReplayRelay<Int>.create(bufferSize: 5)
        let optionalRelay = ReplayRelay<Int?>.create(bufferSize: 5)
        let observer = scheduler.createObserver(Int.self)
        let optionalObserver = scheduler.createObserver(Int?.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.bind(to: relay))
            subscriptions.append(xs.bind(to: optionalRelay))
        }
        scheduler.scheduleAt(400) {
            subscriptions.append(relay.subscribe(observer))
            subscriptions.append(optionalRelay.asObservable().subscribe(optionalObserver))
        }
        scheduler.scheduleAt(410) { relay.accept(3) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(observer.events, [.next(400, 1), .next(400, 2), .next(410, 3)])
        XCTAssertEqual(optionalObserver.events, [.next(400, 1), .next(400, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300), Subscription(200, 300)])
    }
}
