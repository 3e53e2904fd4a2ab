import RxSwift
import RxTest
import XCTest

final class MapTests: RxLeakCheckingTestCase {
    func testMapTransformsEveryElementAtItsTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a----^bc-------|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertMarbles(res, "^BC-------|", values: ["B": 20, "C": 30])
        XCTAssertMarbles(xs.subscriptions, "^---------!")
    }

    func testMapNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.map { $0 + 1 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testMapEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^----|")
        let res = scheduler.start { xs.map { $0 + 1 } }
        XCTAssertMarbles(res, "^----|")
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testMapForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.map { $0 + 1 } }
        XCTAssertMarbles(res, "^b#", values: ["b": 2], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testMapThrowingTransformErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc------|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { () -> Observable<Int> in
            xs.map { value in
                if value == 2 { throw testError }
                return value
            }
        }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testMapDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a----b---|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 250) { xs.map { $0 * 2 } }
        XCTAssertMarbles(res, "^A", values: ["A": 2])
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testMapColdObservableIsRelativeToSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("-a|", values: ["a": 1])
        let res = scheduler.start { xs.map { $0 + 1 } }
        XCTAssertMarbles(res, "^b|", values: ["b": 2])
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testDisposingFromInsideOnNextStopsDelivery() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.map { $0 + 1 }.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [2])
        XCTAssertFalse(subject.hasObservers)
        subscription = nil
    }
}
