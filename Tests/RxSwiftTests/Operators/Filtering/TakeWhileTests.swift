import RxSwift
import RxTest
import XCTest

final class TakeWhileTests: RxLeakCheckingTestCase {
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5]

    // MARK: - take(while:behavior:)

    func testTakeWhileExclusiveDropsTheElementThatEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("e^abcd|", values: values)
        let res = scheduler.start { xs.take(while: { $0 < 3 }) }
        XCTAssertMarbles(res, "^ab|", values: values)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testTakeWhileInclusivePassesTheElementThatEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("e^abcd|", values: values)
        let res = scheduler.start { xs.take(while: { $0 < 3 }, behavior: .inclusive) }
        XCTAssertMarbles(res, "^ab(c|)", values: values)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testTakeWhileAlwaysTrueCompletesWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: values)
        let res = scheduler.start { xs.take(while: { _ in true }, behavior: .inclusive) }
        XCTAssertMarbles(res, "^ab|", values: values)
    }

    func testTakeWhileEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.take(while: { _ in true }) }
        XCTAssertMarbles(res, "^-|")
    }

    func testTakeWhileNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a", values: values)
        let res = scheduler.start { xs.take(while: { $0 < 3 }) }
        XCTAssertMarbles(res, "^a", values: values)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testTakeWhileForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: values, error: testError)
        let res = scheduler.start { xs.take(while: { $0 < 3 }) }
        XCTAssertMarbles(res, "^a#", values: values, error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testTakeWhileThrowingPredicateErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: values)
        let res = scheduler.start { () -> Observable<Int> in
            xs.take(while: { (value: Int) -> Bool in
                if value == 2 { throw testError }
                return true
            })
        }
        XCTAssertMarbles(res, "^a#", values: values, error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testTakeWhileDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a--b|", values: values)
        let res = scheduler.start(disposed: 230) { xs.take(while: { $0 < 3 }) }
        XCTAssertMarbles(res, "^a", values: values)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    /// An element sent into the source from inside the delivery of the inclusive last element is not
    /// considered: the sequence is already over.
    func testTakeWhileInclusiveIgnoresWhatArrivesDuringTheLastElement() {
        let subject = PublishSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.take(while: { $0 < 3 }, behavior: .inclusive).subscribe { event in
            events.append(event)
            if event.element == 3 { subject.onNext(1) }
        }
        subject.onNext(1)
        subject.onNext(3)
        subject.onNext(2)
        XCTAssertEqual(events, [.next(1), .next(3), .completed])
        subscription.dispose()
    }

    // MARK: - take(until:behavior:)

    func testTakeUntilExclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("e^abcd|", values: values)
        let res = scheduler.start { xs.take(until: { $0 == 3 }) }
        XCTAssertMarbles(res, "^ab|", values: values)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testTakeUntilInclusive() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("e^abcd|", values: values)
        let res = scheduler.start { xs.take(until: { $0 == 3 }, behavior: .inclusive) }
        XCTAssertMarbles(res, "^ab(c|)", values: values)
    }

    func testTakeUntilFirstElementMatches() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: values)
        let res = scheduler.start { xs.take(until: { _ in true }) }
        XCTAssertMarbles(res, "^|")
        XCTAssertMarbles(xs.subscriptions, "^!")
    }

    func testTakeUntilNeverMatches() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: values)
        let res = scheduler.start { xs.take(until: { _ in false }) }
        XCTAssertMarbles(res, "^ab|", values: values)
    }

    func testTakeUntilThrowingPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: values)
        let res = scheduler.start { () -> Observable<Int> in
            xs.take(until: { (_: Int) -> Bool in throw testError }, behavior: .inclusive)
        }
        XCTAssertMarbles(res, "^#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^!")
    }

    func testTakeUntilForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a#", values: values, error: testError)
        let res = scheduler.start { xs.take(until: { $0 > 3 }) }
        XCTAssertMarbles(res, "^a#", values: values, error: testError)
    }

    func testTakeBehaviorIsAValueType() {
        XCTAssertEqual(TakeBehavior.inclusive, .inclusive)
        XCTAssertNotEqual(TakeBehavior.inclusive, .exclusive)
    }
}
