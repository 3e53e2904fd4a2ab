import RxCocoa
import RxSwift
import RxTest
import XCTest

/// A Driver stage's connecting subscriber has no share sink of its own (the stage's connection is
/// its disposable): it leaves while others stay, others join after it left, the chain ends.
final class DriverConnectingSubscriberTests: RxLeakCheckingTestCase {
    func testConnectingDriverSubscriberLeavesWhileOthersStayAndJoin() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
            ])
            let driver = xs.asDriver(onErrorJustReturn: -1).map { $0 * 10 }.filter { _ in true }
            let a = scheduler.createObserver(Int.self)
            let b = scheduler.createObserver(Int.self)
            let c = scheduler.createObserver(Int.self)
            let d = scheduler.createObserver(Int.self)
            var subscriptions: [String: Disposable] = [:]
            scheduler.scheduleAt(200) { subscriptions["a"] = driver.drive(a) }
            scheduler.scheduleAt(215) { subscriptions["b"] = driver.drive(b) }
            scheduler.scheduleAt(225) {
                subscriptions["a"]?.dispose()
                subscriptions["a"]?.dispose()
            }
            scheduler.scheduleAt(235) { subscriptions["c"] = driver.drive(c) }
            scheduler.scheduleAt(236) { subscriptions["a"]?.dispose() }
            // After the end: a new connection, the source (hot, ended) delivers nothing more.
            scheduler.scheduleAt(260) { subscriptions["d"] = driver.drive(d) }
            scheduler.scheduleAt(300) { subscriptions.values.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(a.events, [.next(211, 10), .next(221, 20)])
            XCTAssertEqual(b.events, [.next(215, 10), .next(221, 20), .next(231, 30), .next(241, 40), .completed(251)])
            XCTAssertEqual(c.events, [.next(235, 30), .next(241, 40), .completed(251)])
            XCTAssertEqual(d.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250), Subscription(260, 300)])
        }
    }
}
