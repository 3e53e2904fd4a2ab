import RxSwift
import RxTest
import XCTest

final class FilterTests: RxLeakCheckingTestCase {
    func testFilterPassesMatchingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4]
        let xs = scheduler.createHotObservable("^abcd-----|", values: values)
        let res = scheduler.start { xs.filter { $0 % 2 == 0 } }
        XCTAssertMarbles(res, "^-b-d-----|", values: values)
        XCTAssertMarbles(xs.subscriptions, "^---------!")
    }

    func testFilterNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let empty = scheduler.createHotObservable([.completed(230, Int.self)])
        let res1 = scheduler.start { never.filter { _ in true } }
        XCTAssertEqual(res1.events, [])
        let scheduler2 = TestScheduler(initialClock: 0)
        let empty2 = scheduler2.createHotObservable([.completed(230, Int.self)])
        let res2 = scheduler2.start { empty2.filter { _ in true } }
        XCTAssertEqual(res2.events, [.completed(230)])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(empty.subscriptions, [])
    }

    func testFilterForwardsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.filter { _ in true } }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
    }

    func testFilterThrowingPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab-------|", values: ["a": 1, "b": 2])
        let res = scheduler.start { () -> Observable<Int> in
            xs.filter { value in
                if value == 2 { throw testError }
                return true
            }
        }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testFilterDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a----b---|", values: ["a": 2, "b": 4])
        let res = scheduler.start(disposed: 250) { xs.filter { $0 > 0 } }
        XCTAssertMarbles(res, "^a", values: ["a": 2])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }
}
