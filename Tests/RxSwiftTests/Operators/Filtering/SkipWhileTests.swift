import RxSwift
import RxTest
import XCTest

final class SkipWhileTests: RxLeakCheckingTestCase {
    func testDropsWhileThePredicateHoldsThenPassesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^bcdbe|", values: ["a": 9, "b": 1, "c": 2, "d": 5, "e": 7])
        var calls = 0
        let res = scheduler.start {
            xs.skip(while: { value in
                calls += 1
                return value < 3
            })
        }
        XCTAssertMarbles(res, "^--dbe|", values: ["b": 1, "d": 5, "e": 7])
        XCTAssertMarbles(xs.subscriptions, "^-----!")
        // Not asked again after the first `false`.
        XCTAssertEqual(calls, 3)
    }

    func testPredicateNeverFalse() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.skip(while: { _ in true }) }
        XCTAssertMarbles(res, "^--|")
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.skip(while: { _ in true }) }
        XCTAssertMarbles(res, "^-|")
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a", values: ["a": 1])
        let res = scheduler.start { xs.skip(while: { $0 < 5 }) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab#", values: ["a": 1, "b": 9], error: testError)
        let res = scheduler.start { xs.skip(while: { $0 < 5 }) }
        XCTAssertMarbles(res, "^-b#", values: ["b": 9], error: testError)
    }

    func testThrowingPredicateErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { () -> Observable<Int> in
            xs.skip(while: { (value: Int) -> Bool in
                if value == 2 { throw testError }
                return true
            })
        }
        XCTAssertMarbles(res, "^-#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab--c|", values: ["a": 1, "b": 7, "c": 8])
        let res = scheduler.start(disposed: 240) { xs.skip(while: { $0 < 5 }) }
        XCTAssertMarbles(res, "^-b", values: ["b": 7])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }
}
