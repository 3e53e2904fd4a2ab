import RxSwift
import RxTest
import XCTest

final class ElementAtTests: RxLeakCheckingTestCase {
    func testEmitsTheElementAtTheIndexThenCompletesAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^bcde|", values: ["a": 0, "b": 1, "c": 2, "d": 3, "e": 4])
        let res = scheduler.start { xs.element(at: 2) }
        XCTAssertMarbles(res, "^--(d|)", values: ["d": 3])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testIndexZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.element(at: 0) }
        XCTAssertMarbles(res, "^(a|)", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^!")
    }

    func testSourceTooShortGivesArgumentOutOfRange() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab-|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.element(at: 2) }
        XCTAssertEqual(res.events, [.error(240, RxError.argumentOutOfRange)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.element(at: 0) }
        XCTAssertEqual(res.events, [.error(220, RxError.argumentOutOfRange)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.element(at: 3) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testErrorBeforeTheIndexIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.element(at: 1) }
        XCTAssertMarbles(res, "^-#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a---b|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 230) { xs.element(at: 1) }
        XCTAssertEqual(res.events, [])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testAReentrantElementIsNotPassedOn() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.element(at: 0).subscribe { event in
            events.append(event)
            if case .next = event { subject.onNext(99) }
        }
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(events, [.next(1), .completed])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }
}
