import RxSwift
import RxTest
import XCTest

final class IgnoreElementsTests: RxLeakCheckingTestCase {
    func testReturnsObservableOfNever() {
        let observable: Observable<Never> = Observable.of(1, 2, 3).ignoreElements()
        var completed = false
        _ = observable.subscribe(onCompleted: { completed = true })
        XCTAssertTrue(completed)
    }

    func testDropsElementsAndPassesOnCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^bc-d|", values: ["a": 0, "b": 1, "c": 2, "d": 3])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.completed(250)])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab#", values: ["a": 1, "b": 2], error: testError)
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [.completed(220)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.ignoreElements() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a---|", values: ["a": 1])
        let res = scheduler.start(disposed: 230) { xs.ignoreElements() }
        XCTAssertEqual(res.events, [])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }
}
