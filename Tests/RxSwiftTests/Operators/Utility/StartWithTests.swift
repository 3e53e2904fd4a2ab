import RxSwift
import RxTest
import XCTest

final class StartWithTests: RxLeakCheckingTestCase {
    func testEmitsTheElementsWhenSubscribingThenTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^-b-|", values: ["a": 0, "b": 3])
        let res = scheduler.start { xs.startWith(1, 2) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(220, 3), .completed(240)])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testLaterStartWithGoesFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^-a|", values: ["a": 9])
        let res = scheduler.start { xs.startWith(2).startWith(0, 1) }
        XCTAssertEqual(res.events, [.next(200, 0), .next(200, 1), .next(200, 2), .next(220, 9), .completed(230)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.startWith(1) }
        XCTAssertEqual(res.events, [.next(200, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.startWith(1) }
        XCTAssertEqual(res.events, [.next(200, 1), .completed(220)])
    }

    func testNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a|", values: ["a": 1])
        let res = scheduler.start { xs.startWith() }
        XCTAssertMarbles(res, "^a|", values: ["a": 1])
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-#", error: testError)
        let res = scheduler.start { xs.startWith(1) }
        XCTAssertEqual(res.events, [.next(200, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^-a-b|", values: ["a": 2, "b": 3])
        let res = scheduler.start(disposed: 235) { xs.startWith(1) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(220, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }

    func testEndingWhileTheElementsAreDeliveredStillSubscribesTheSourceAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^-a|", values: ["a": 9])
        let res = scheduler.start { () -> Observable<Int> in
            xs.startWith(1, 2, 3).do(onNext: { if $0 == 2 { throw testError } })
        }
        XCTAssertEqual(res.events, [.next(200, 1), .error(200, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
    }

    func testBeforeASynchronousSource() {
        var received: [Int] = []
        _ = Observable.of(3, 4).startWith(1, 2).subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [1, 2, 3, 4])
    }
}
