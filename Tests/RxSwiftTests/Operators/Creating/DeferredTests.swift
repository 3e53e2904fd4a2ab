import RxSwift
import RxTest
import XCTest

final class DeferredTests: RxLeakCheckingTestCase {
    func testFactoryRunsOncePerSubscriptionAtSubscriptionTime() {
        let scheduler = TestScheduler(initialClock: 0)
        var factoryCalls: [Int] = []
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20, Int.self)])
        let res = scheduler.start {
            Observable.deferred { () -> Observable<Int> in
                factoryCalls.append(scheduler.clock)
                return xs.asObservable()
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
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
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { Observable.deferred { xs.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testErrorOfTheDeferredSequenceIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
        let res = scheduler.start { Observable.deferred { xs.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }
}
