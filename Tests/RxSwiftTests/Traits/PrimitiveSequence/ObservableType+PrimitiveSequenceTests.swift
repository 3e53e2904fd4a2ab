import RxSwift
import RxTest
import XCTest

final class ObservableTypePrimitiveSequenceTests: RxLeakCheckingTestCase {
    func testAsSingleDeliversTheElementWhenTheSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        XCTAssertEqual(res.events, [.next(250, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAsSingleFailsAtASecondElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        XCTAssertEqual(res.events, [.error(220, RxError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAsSingleOfAnEmptySourceFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(250)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        XCTAssertEqual(res.events, [.error(250, RxError.noElements)])
    }

    func testAsSingleForwardsAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { xs.asSingle().asObservable() }
        XCTAssertEqual(res.events, [.error(230, testError)])
    }

    func testAsMaybeOfAnEmptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty: TestableObservable<Int> = scheduler.createHotObservable([.completed(250)])
        XCTAssertEqual(scheduler.start(disposed: 290) { empty.asMaybe().asObservable() }.events, [.completed(250)])
        let two = scheduler.createHotObservable([.next(310, 1), .next(320, 2)])
        let res = scheduler.start(created: 300, subscribed: 300, disposed: 1000) { two.asMaybe().asObservable() }
        XCTAssertEqual(res.events, [.error(320, RxError.moreThanOneElement)])
    }

    func testFirstDeliversTheFirstElementAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.first().asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testFirstOfAnEmptySourceIsNil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(250)])
        let res = scheduler.start { xs.first().asObservable() }
        XCTAssertEqual(res.events, [.next(250, nil), .completed(250)])
    }

    func testToArrayCollectsUntilCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start(disposed: 290) { xs.toArray().asObservable() }
        XCTAssertEqual(res.events, [.next(250, [1, 2]), .completed(250)])
        let failing = scheduler.createHotObservable([.next(310, 1), .error(320, testError)])
        let failed = scheduler.start(created: 300, subscribed: 300, disposed: 1000) { failing.toArray().asObservable() }
        XCTAssertEqual(failed.events, [.error(320, testError)])
    }

    func testAsCompletableDropsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        var events: [String] = []
        scheduler.scheduleAt(200) {
            _ = xs.ignoreElements().asCompletable().subscribe(onCompleted: { events.append("completed") })
        }
        scheduler.start()
        XCTAssertEqual(events, ["completed"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    /// `asCompletable()` exists only on `Observable<Never>`, as in RxSwift, so a cold observable of
    /// nothing but a completion gets its element type from it.
    func testAsCompletableInfersNeverElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 290) {
            scheduler.createColdObservable([.completed(20)]).asCompletable().asObservable()
        }
        XCTAssertEqual(res.events, [.completed(220)])
        let failed = scheduler.start(created: 300, subscribed: 300, disposed: 1000) {
            scheduler.createColdObservable([.error(10, testError)]).asCompletable().asObservable()
        }
        XCTAssertEqual(failed.events, [.error(310, testError)])
    }
}
