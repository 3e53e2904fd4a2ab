import RxSwift
import RxTest
import XCTest

final class DeferredTests: RxLeakCheckingTestCase {
    func testFactoryRunsOncePerSubscriptionAtSubscriptionTime() {
        let scheduler = TestScheduler(initialClock: 0)
        var factoryCalls: [Int] = []
        let xs = scheduler.createColdObservable("-a|", values: ["a": 1])
        let res = scheduler.start {
            Observable.deferred { () -> Observable<Int> in
                factoryCalls.append(scheduler.clock)
                return xs.asObservable()
            }
        }
        XCTAssertMarbles(res, "^a|", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^-!")
        XCTAssertEqual(factoryCalls, [200])
    }

    func testEachSubscriptionGetsAFreshSequence() {
        var counter = 0
        let deferred = Observable.deferred { () -> Observable<Int> in
            counter += 1
            return .just(counter)
        }
        var events: [Event<Int>] = []
        _ = deferred.subscribe { events.append($0) }
        _ = deferred.subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .completed, .next(2), .completed])
    }

    func testThrowingFactoryErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.deferred { throw testError } }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testDisposalReachesTheDeferredSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a----b---|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 250) { Observable.deferred { xs.asObservable() } }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testErrorOfTheDeferredSequenceIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-#", values: ["a": 1], error: testError)
        let res = scheduler.start { Observable.deferred { xs.asObservable() } }
        XCTAssertMarbles(res, "^a-#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }
}
