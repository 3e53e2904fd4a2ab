import RxSwift
import RxTest
import XCTest

final class SingleTests: RxLeakCheckingTestCase {
    func testEmptyGivesNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("a^----|", values: ["a": 1])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.error(250, RxError.noElements)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testOneElementIsPassedOnAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^b---|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.single() }
        XCTAssertMarbles(res, "^b---|", values: ["b": 2])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    /// RxSwift's edge: the first element is delivered when it arrives, and the error comes at the
    /// second element, not at completion.
    func testSecondElementFailsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^bc-d|", values: ["b": 2, "c": 3, "d": 4])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 2), .error(220, RxError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testErrorAfterTheElementIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.single() }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a", values: ["a": 1])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a--b|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 230) { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testPredicateEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ac-|", values: ["a": 2, "c": 4])
        let res = scheduler.start { xs.single { $0 % 2 == 1 } }
        XCTAssertEqual(res.events, [.error(240, RxError.noElements)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testPredicateOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcd|", values: ["a": 2, "b": 3, "c": 4, "d": 5])
        let res = scheduler.start { xs.single { $0 == 4 } }
        XCTAssertMarbles(res, "^--c-|", values: ["c": 4])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testPredicateMany() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcd|", values: ["a": 2, "b": 3, "c": 4, "d": 5])
        let res = scheduler.start { xs.single { $0 % 2 == 1 } }
        XCTAssertEqual(res.events, [.next(220, 3), .error(240, RxError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testThrowingPredicateErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcd|", values: ["a": 2, "b": 3, "c": 4, "d": 5])
        let res = scheduler.start { () -> Observable<Int> in
            xs.single { (value: Int) -> Bool in
                if value >= 4 { throw testError }
                return false
            }
        }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    /// RxSwift's `testSingle_DecrementCountsFirst`: an element sent back into the source from inside
    /// `onNext` is a second element.
    func testReentrantSecondElementFails() {
        let subject = BehaviorSubject(value: false)
        var events: [Event<Bool>] = []
        let subscription = subject.single { _ in true }.subscribe { event in
            events.append(event)
            if case .next(let value) = event { subject.onNext(!value) }
        }
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events.first, .next(false))
        XCTAssertEqual(events.last?.error.map { "\($0)" }, "\(RxError.moreThanOneElement)")
        subscription.dispose()
    }
}
