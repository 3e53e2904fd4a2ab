import RxRelay
import RxSwift
import RxTest
import XCTest

final class PublishRelayTests: RxLeakCheckingTestCase {
    func testObserversReceiveElementsAcceptedAfterTheySubscribed() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(110) { relay.accept(1) }
        scheduler.scheduleAt(200) { subscriptions.append(relay.subscribe(early)) }
        scheduler.scheduleAt(210) { relay.accept(2) }
        scheduler.scheduleAt(300) { subscriptions.append(relay.asObservable().subscribe(late)) }
        scheduler.scheduleAt(310) { relay.accept(3) }
        scheduler.scheduleAt(400) { subscriptions[0].dispose() }
        scheduler.scheduleAt(410) { relay.accept(4) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(early.events, [.next(210, 2), .next(310, 3)])
        XCTAssertEqual(late.events, [.next(310, 3), .next(410, 4)])
    }

    func testBindForwardsElementsAndIgnoresCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let first = PublishRelay<Int>()
        let second = PublishRelay<Int>()
        let firstObserver = scheduler.createObserver(Int.self)
        let secondObserver = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(100) {
            subscriptions.append(first.subscribe(firstObserver))
            subscriptions.append(second.subscribe(secondObserver))
        }
        scheduler.scheduleAt(200) { subscriptions.append(xs.bind(to: first, second)) }
        scheduler.scheduleAt(400) { first.accept(3) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertEqual(firstObserver.events, [.next(210, 1), .next(220, 2), .next(400, 3)])
        XCTAssertEqual(secondObserver.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testBindToOptionalRelayWrapsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a--------|", values: ["a": 1])
        let relay = PublishRelay<Int?>()
        let observer = scheduler.createObserver(Int?.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(100) { subscriptions.append(relay.subscribe(observer)) }
        scheduler.scheduleAt(200) { subscriptions.append(xs.bind(to: relay)) }
        scheduler.scheduleAt(250) { relay.accept(nil) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()

        XCTAssertMarbles(observer, "^a---n", values: ["a": 1, "n": nil])
    }

    func testDisposingTheBindingStopsForwarding() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a----b", values: ["a": 1, "b": 2])
        let relay = PublishRelay<Int>()
        let observer = scheduler.createObserver(Int.self)
        var binding: Disposable?
        var subscription: Disposable?
        scheduler.scheduleAt(100) { subscription = relay.subscribe(observer) }
        scheduler.scheduleAt(200) { binding = xs.bind(to: relay) }
        scheduler.scheduleAt(250) { binding?.dispose() }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        scheduler.start()

        XCTAssertMarbles(observer, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testReentrantAcceptIsDeliveredAfterTheCurrentElement() {
        let relay = PublishRelay<Int>()
        var log: [String] = []
        let first = relay.subscribe(onNext: { value in
            log.append("a\(value)")
            if value == 1 { relay.accept(2) }
        })
        let second = relay.subscribe(onNext: { log.append("b\($0)") })
        relay.accept(1)
        XCTAssertEqual(log, ["a1", "b1", "a2", "b2"])
        first.dispose()
        second.dispose()
    }

    func testReleasingTheRelayReleasesItsSubject() {
        weak var weakRelay: PublishRelay<Int>?
        do {
            let relay = PublishRelay<Int>()
            weakRelay = relay
            relay.accept(1)
        }
        XCTAssertNil(weakRelay)
    }
}

final class RelayAsInfallibleTests: XCTestCase {
    func testRelaysAsInfallibleDeliverWhatIsAccepted() {
        let publish = PublishRelay<Int>()
        let behavior = BehaviorRelay(value: 1)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        var received: [Int] = []
        let bag = DisposeBag()
        publish.asInfallible().subscribe(onNext: { received.append($0) }).disposed(by: bag)
        behavior.asInfallible().subscribe(onNext: { received.append($0) }).disposed(by: bag)
        replay.accept(5)
        replay.asInfallible().subscribe(onNext: { received.append($0) }).disposed(by: bag)
        publish.accept(2)
        behavior.accept(3)
        XCTAssertEqual(received, [1, 5, 2, 3])
    }
}
