import RxSwift
import RxTest
import XCTest

final class TakeLastTests: RxLeakCheckingTestCase {
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5]

    func testEmitsTheLastElementsWhenTheSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("e^abcd-|", values: values)
        let res = scheduler.start { xs.takeLast(2) }
        XCTAssertMarbles(res, "^-----(cd|)", values: values)
        XCTAssertMarbles(xs.subscriptions, "^-----!")
    }

    func testFewerElementsThanTheCount() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: values)
        let res = scheduler.start { xs.takeLast(5) }
        XCTAssertMarbles(res, "^--(ab|)", values: values)
    }

    func testZeroOnlyPassesOnTheEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: values)
        let res = scheduler.start { xs.takeLast(0) }
        XCTAssertMarbles(res, "^--|")
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.takeLast(1) }
        XCTAssertMarbles(res, "^-|")
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab", values: values)
        let res = scheduler.start { xs.takeLast(1) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testErrorDropsTheKeptElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab#", values: values, error: testError)
        let res = scheduler.start { xs.takeLast(2) }
        XCTAssertMarbles(res, "^--#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab--|", values: values)
        let res = scheduler.start(disposed: 230) { xs.takeLast(2) }
        XCTAssertEqual(res.events, [])
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testDisposingDuringTheFlushStopsIt() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.takeLast(3).subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        for value in 1...5 { subject.onNext(value) }
        subject.onCompleted()
        XCTAssertEqual(received, [3])
        subscription = nil
    }
}
