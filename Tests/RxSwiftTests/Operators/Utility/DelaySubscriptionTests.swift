import RxSwift
import RxTest
import XCTest

final class DelaySubscriptionTests: RxLeakCheckingTestCase {
    func testSubscribesToAHotSourceLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(310, 3), .completed(400)])
        let res = scheduler.start { xs.delaySubscription(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(260, 2), .next(310, 3), .completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(250, 400)])
    }

    func testColdSourceStartsAtTheDelayedSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("-a-b|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertMarbles(res, "^---a-b|", values: ["a": 1, "b": 2])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 270)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.delaySubscription(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(250, 1000)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createColdObservable("--|")
        let res = scheduler.start { xs.delaySubscription(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(270)])
        XCTAssertEqual(xs.subscriptions, [Subscription(250, 270)])
    }

    func testForwardsTheSourcesError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("-a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.delaySubscription(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(260, 1), .error(270, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(250, 270)])
    }

    func testDisposedBeforeTheDueTimeNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 1), .completed(300)])
        let res = scheduler.start(disposed: 240) { xs.delaySubscription(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testDisposedAfterSubscribingDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 1), .next(300, 2), .completed(400)])
        let res = scheduler.start(disposed: 280) { xs.delaySubscription(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(260, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(250, 280)])
    }

    func testSynchronousSourceStopsWhenDownstreamEndsEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        var emitted: [Int] = []
        let res = scheduler.start { () -> Observable<Int> in
            Observable.of(1, 2, 3, 4)
                .do(onNext: { emitted.append($0) })
                .delaySubscription(.seconds(10), scheduler: scheduler)
                .do(onNext: { if $0 == 2 { throw testError } })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(210, testError)])
        // The source ran on the trampoline, so the early end reached it before it emitted 3.
        XCTAssertEqual(emitted, [1, 2])
    }
}
