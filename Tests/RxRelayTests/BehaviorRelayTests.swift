import RxRelay
import RxSwift
import RxTest
import XCTest

final class BehaviorRelayTests: RxLeakCheckingTestCase {
    func testObserversReceiveTheCurrentValueThenAcceptedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 0)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        var values: [Int] = []
        scheduler.scheduleAt(110) {
            relay.accept(1)
            values.append(relay.value)
        }
        scheduler.scheduleAt(200) { subscriptions.append(relay.subscribe(early)) }
        scheduler.scheduleAt(210) { relay.accept(2) }
        scheduler.scheduleAt(300) { subscriptions.append(relay.asObservable().subscribe(late)) }
        scheduler.scheduleAt(310) {
            relay.accept(3)
            values.append(relay.value)
        }
        scheduler.scheduleAt(400) { subscriptions[0].dispose() }
        scheduler.scheduleAt(410) { relay.accept(4) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(200, 1), .next(210, 2), .next(310, 3)])
        XCTAssertEqual(late.events, [.next(300, 2), .next(310, 3), .next(410, 4)])
        XCTAssertEqual(values, [1, 3])
        XCTAssertEqual(relay.value, 4)
    }

    func testInitialValue() {
        XCTAssertEqual(BehaviorRelay(value: "start").value, "start")
    }

    func testBindUpdatesTheValueAndIgnoresCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let first = BehaviorRelay(value: 0)
        let second = BehaviorRelay(value: 0)
        let observer = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(100) { subscriptions.append(first.subscribe(observer)) }
        scheduler.scheduleAt(200) { subscriptions.append(xs.bind(to: first, second)) }
        scheduler.scheduleAt(400) { first.accept(3) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(observer.events, [.next(100, 0), .next(210, 1), .next(220, 2), .next(400, 3)])
        XCTAssertEqual(second.value, 2)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testBindToOptionalRelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a", values: ["a": "a"])
        let relay = BehaviorRelay<String?>(value: nil)
        var binding: Disposable?
        scheduler.scheduleAt(200) { binding = xs.bind(to: relay) }
        scheduler.scheduleAt(300) { binding?.dispose() }
        scheduler.start()

        XCTAssertEqual(relay.value, "a")
        XCTAssertMarbles(xs.subscriptions, "^---------!")
    }

    func testValueIsReadableFromInsideAnObserver() {
        let relay = BehaviorRelay(value: 0)
        var seen: [Int] = []
        let subscription = relay.subscribe(onNext: { _ in seen.append(relay.value) })
        relay.accept(5)
        XCTAssertEqual(seen, [0, 5])
        subscription.dispose()
    }
}
