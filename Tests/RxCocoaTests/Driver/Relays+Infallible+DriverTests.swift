import RxCocoa
import RxSwift
import RxTest
import XCTest

final class RelaysInfallibleDriverTests: RxLeakCheckingTestCase {
    func testBehaviorRelayAsDriverDeliversTheValueThenChangesOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let relay = BehaviorRelay(value: 1)
            let driver = relay.asDriver()
            let observer = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) { subscription = driver.drive(observer) }
            scheduler.scheduleAt(210) { relay.accept(2) }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(201, 1), .next(211, 2)])
        }
    }

    func testPublishRelayAsSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let relay = PublishRelay<Int>()
            let signal = relay.asSignal()
            let observer = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(100) { relay.accept(0) }
            scheduler.scheduleAt(200) { subscription = signal.emit(to: observer) }
            scheduler.scheduleAt(210) { relay.accept(1) }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(211, 1)])
        }
    }

    func testInfallibleAsDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
            let infallible = xs.asInfallible(onErrorJustReturn: -1)
            let res = scheduler.start { infallible.asDriver() }
            XCTAssertEqual(res.events, [.next(211, 1), .completed(221)])
        }
    }
}
