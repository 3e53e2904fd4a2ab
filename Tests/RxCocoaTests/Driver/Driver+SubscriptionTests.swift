import RxCocoa
import RxSwift
import RxTest
import XCTest

/// Every form of `drive`.
final class DriverSubscriptionTests: RxLeakCheckingTestCase {
    private final class Owner {
        var seen: [String] = []
    }

    /// Runs `body` in virtual time with a driver of 1, 2 then completion (hot, from 210).
    private func withDriver(_ body: (TestScheduler, Driver<Int>) -> Void) {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            body(scheduler, xs.asDriver(onErrorJustReturn: -1))
        }
    }

    func testDriveObservers() {
        withDriver { scheduler, driver in
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) { _ = driver.drive(first, second) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2), .completed(231)])
            XCTAssertEqual(second.events, first.events)
        }
    }

    func testDriveOptionalObserver() {
        withDriver { scheduler, driver in
            let observer = scheduler.createObserver(Int?.self)
            scheduler.scheduleAt(200) { _ = driver.drive(observer) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(211, 1), .next(221, 2), .completed(231)])
        }
    }

    func testDriveBehaviorRelaysIgnoresCompletion() {
        withDriver { scheduler, driver in
            let relay = BehaviorRelay(value: 0)
            let optional = BehaviorRelay<Int?>(value: nil)
            let observer = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(100) { subscriptions.append(relay.subscribe(observer)) }
            scheduler.scheduleAt(200) {
                subscriptions.append(driver.drive(relay))
                subscriptions.append(driver.drive(optional))
            }
            scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(100, 0), .next(211, 1), .next(221, 2)])
            XCTAssertEqual(optional.value, 2)
        }
    }

    func testDriveReplayRelays() {
        withDriver { scheduler, driver in
            let relay = ReplayRelay<Int>.create(bufferSize: 5)
            let optional = ReplayRelay<Int?>.create(bufferSize: 5)
            let observer = scheduler.createObserver(Int.self)
            let optionalObserver = scheduler.createObserver(Int?.self)
            scheduler.scheduleAt(200) {
                _ = driver.drive(relay)
                _ = driver.drive(optional)
            }
            scheduler.scheduleAt(300) {
                _ = relay.subscribe(observer)
                _ = optional.subscribe(optionalObserver)
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(300, 1), .next(300, 2)])
            XCTAssertEqual(optionalObserver.events, [.next(300, 1), .next(300, 2)])
        }
    }

    func testDriveClosures() {
        withDriver { scheduler, driver in
            var log: [String] = []
            scheduler.scheduleAt(200) {
                _ = driver.drive(
                    onNext: { log.append("next \($0) @ \(scheduler.clock)") },
                    onCompleted: { log.append("completed @ \(scheduler.clock)") },
                    onDisposed: { log.append("disposed @ \(scheduler.clock)") })
            }
            scheduler.start()
            XCTAssertEqual(log, ["next 1 @ 211", "next 2 @ 221", "completed @ 231", "disposed @ 231"])
        }
    }

    func testDriveWithObjectStopsWhenTheObjectIsGone() {
        withDriver { scheduler, driver in
            var owner: Owner? = Owner()
            weak let weakOwner = owner
            var disposed = 0
            scheduler.scheduleAt(200) {
                _ = driver.drive(
                    with: owner!, onNext: { owner, element in owner.seen.append("next \(element)") },
                    onCompleted: { owner in owner.seen.append("completed") }, onDisposed: { _ in disposed += 1 })
            }
            scheduler.scheduleAt(215) {
                XCTAssertEqual(owner?.seen, ["next 1"])
                owner = nil
            }
            scheduler.start()
            XCTAssertNil(weakOwner)
            XCTAssertEqual(disposed, 0)
        }
    }

    func testDriveWithObjectDeliversEverything() {
        withDriver { scheduler, driver in
            let owner = Owner()
            scheduler.scheduleAt(200) {
                _ = driver.drive(
                    with: owner, onNext: { owner, element in owner.seen.append("next \(element)") },
                    onCompleted: { owner in owner.seen.append("completed") },
                    onDisposed: { owner in owner.seen.append("disposed") })
            }
            scheduler.start()
            XCTAssertEqual(owner.seen, ["next 1", "next 2", "completed", "disposed"])
        }
    }

    func testDriveWithoutArgumentsSubscribes() {
        withDriver { scheduler, driver in
            var count = 0
            let counted = driver.do(onNext: { _ in count += 1 })
            scheduler.scheduleAt(200) { _ = counted.drive() }
            scheduler.start()
            XCTAssertEqual(count, 2)
        }
    }

    func testDriveDisposalStopsDelivery() {
        withDriver { scheduler, driver in
            let observer = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) { subscription = driver.drive(observer) }
            scheduler.scheduleAt(215) { subscription?.dispose() }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(211, 1)])
        }
    }

    func testDriveTransformationAndCurriedForms() {
        withDriver { scheduler, driver in
            let observer = scheduler.createObserver(Int.self)
            func bindDoubled(_ source: Observable<Int>) -> Disposable {
                source.map { $0 * 2 }.subscribe(observer)
            }
            func bindAdding(_ source: Observable<Int>) -> (Int) -> Disposable {
                { offset in source.map { $0 + offset }.subscribe(observer) }
            }
            scheduler.scheduleAt(200) {
                _ = driver.drive(bindDoubled)
                _ = driver.drive(bindAdding, curriedArgument: 100)
            }
            scheduler.start()
            XCTAssertEqual(
                observer.events.map(\.value.element),
                [2, 101, 4, 102, nil, nil])
        }
    }

    func testDriveOnTheMainThreadWithTheRealScheduler() {
        let relay = BehaviorRelay(value: 1)
        var seen: [Int] = []
        let subscription = relay.asDriver().drive(onNext: { seen.append($0) })
        // On the main thread with nothing queued, the main scheduler delivers at once.
        XCTAssertEqual(seen, [1])
        relay.accept(2)
        XCTAssertEqual(seen, [1, 2])
        subscription.dispose()
    }
}
