import RxSwift
import RxTest
import XCTest

final class ScanTests: RxLeakCheckingTestCase {
    func testEmitsEachIntermediateResultButNotTheSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^b-cd-|", values: ["a": 100, "b": 1, "c": 2, "d": 3])
        let res = scheduler.start { xs.scan(10) { $0 + $1 } }
        XCTAssertMarbles(res, "^B-CD-|", values: ["B": 11, "C": 13, "D": 16])
        XCTAssertMarbles(xs.subscriptions, "^-----!")
    }

    func testIntoMutatesTheAccumulatorInPlace() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { xs.scan(into: [Int]()) { $0.append($1) } }
        XCTAssertMarbles(res, "^ABC|", values: ["A": [1], "B": [1, 2], "C": [1, 2, 3]])
    }

    func testAccumulatorCanChangeTheType() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.scan("") { $0 + String($1) } }
        XCTAssertMarbles(res, "^AB|", values: ["A": "1", "B": "12"])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.scan(0, accumulator: +) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmptyEmitsNothingNotEvenTheSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        let res = scheduler.start { xs.scan(42, accumulator: +) }
        XCTAssertMarbles(res, "^--|")
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab#", values: ["a": 1, "b": 2], error: testError)
        let res = scheduler.start { xs.scan(0, accumulator: +) }
        XCTAssertMarbles(res, "^AB#", values: ["A": 1, "B": 3], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testThrowingAccumulatorErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc-|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { () -> Observable<Int> in
            xs.scan(0) { sum, value in
                if value == 2 { throw testError }
                return sum + value
            }
        }
        XCTAssertMarbles(res, "^A#", values: ["A": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testThrowingIntoAccumulatorErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc-|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { () -> Observable<[Int]> in
            xs.scan(into: []) { all, value in
                if value == 3 { throw testError }
                all.append(value)
            }
        }
        XCTAssertMarbles(res, "^AB#", values: ["A": [1], "B": [1, 2]], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^a-b-c|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start(disposed: 240) { xs.scan(0, accumulator: +) }
        XCTAssertMarbles(res, "^A-B", values: ["A": 1, "B": 3])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testEverySubscriptionStartsFromTheSeed() {
        let scan = Observable.of(1, 2, 3).scan(into: [Int]()) { $0.append($1) }
        var first: [[Int]] = []
        var second: [[Int]] = []
        _ = scan.subscribe(onNext: { first.append($0) })
        _ = scan.subscribe(onNext: { second.append($0) })
        XCTAssertEqual(first, [[1], [1, 2], [1, 2, 3]])
        XCTAssertEqual(second, first)
    }

    func testReentrantElementsAreAccumulatedInOrder() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.scan(0, accumulator: +).subscribe(onNext: { sum in
            received.append(sum)
            if sum == 1 { subject.onNext(10) }
        })
        subject.onNext(1)
        subject.onNext(100)
        XCTAssertEqual(received, [1, 11, 111])
        subscription.dispose()
    }
}
