import RxCocoa
import RxSwift
import RxTest
import XCTest

/// `Driver.map`/`filter` and `Signal.map`/`filter` run their closure inside the stage's share (one
/// producer instead of an operator and a share): the behaviour must be exactly that of the operator
/// followed by `share(replay: 1 or 0, scope: .whileConnected)`.
final class FusedSharingTests: RxLeakCheckingTestCase {
    func testDriverMapRunsOncePerElementAndReplaysTheMappedValue() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(250)])
            var calls = 0
            let driver = xs.asDriver(onErrorJustReturn: -1).map { element -> Int in
                calls += 1
                return element * 10
            }
            let early = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(driver.drive(early)) }
            scheduler.scheduleAt(230) { subscriptions.append(driver.drive(late)) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(early.events, [.next(211, 10), .next(221, 20), .next(241, 30), .completed(251)])
            XCTAssertEqual(late.events, [.next(230, 20), .next(241, 30), .completed(251)])
            XCTAssertEqual(calls, 3)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDriverFilterReplaysTheLatestElementThatPassed() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .next(240, 4)])
            let driver = xs.asDriver(onErrorJustReturn: -1).filter { $0.isMultiple(of: 2) }
            let early = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(driver.drive(early)) }
            scheduler.scheduleAt(230) { subscriptions.append(driver.drive(late)) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(early.events, [.next(211, 2), .next(241, 4)])
            XCTAssertEqual(late.events, [.next(230, 2), .next(241, 4)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testSignalMapAndFilterShareWithoutReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4)])
            var calls = 0
            let signal = xs.asSignal(onErrorJustReturn: -1)
                .map { element -> Int in
                    calls += 1
                    return element + 100
                }
                .filter { $0 != 103 }
            let early = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(signal.emit(to: early)) }
            scheduler.scheduleAt(230) { subscriptions.append(signal.emit(to: late)) }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            XCTAssertEqual(early.events, [.next(211, 101), .next(221, 102), .next(251, 104)])
            XCTAssertEqual(late.events, [.next(251, 104)])
            XCTAssertEqual(calls, 4)
        }
    }

    /// The last subscriber leaving disconnects the fused stage; the next one starts anew, without
    /// the old connection's element.
    func testReconnectingAFusedStage() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
            let driver = xs.asDriver(onErrorJustReturn: -1).map { $0 * 2 }
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) { subscription = driver.drive(first) }
            scheduler.scheduleAt(230) { subscription?.dispose() }
            scheduler.scheduleAt(240) { subscription = driver.drive(second) }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 2)])
            XCTAssertEqual(second.events, [.next(261, 4)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(240, 300)])
        }
    }
}
