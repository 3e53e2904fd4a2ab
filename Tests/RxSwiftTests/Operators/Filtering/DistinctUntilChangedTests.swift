import RxSwift
import RxTest
import XCTest

final class DistinctUntilChangedTests: RxLeakCheckingTestCase {
    private struct Person: Equatable {
        var name: String
        var age: Int
    }

    func testEquatableDropsConsecutiveDuplicatesOnly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(
            "a-^-abba-cab-|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertMarbles(res, "^-ab-a-cab-|", values: ["a": 1, "b": 2, "c": 3])
        XCTAssertMarbles(xs.subscriptions, "^----------!")
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertMarbles(res, "^--|")
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testForwardsUpstreamError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^aa#", values: ["a": 1], error: testError)
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertMarbles(res, "^a-#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab---c-|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start(disposed: 240) { xs.distinctUntilChanged() }
        XCTAssertMarbles(res, "^ab", values: ["a": 1, "b": 2])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testOptionalElementsTreatNilAsAValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(
            [
                .next(210, nil), .next(220, nil), .next(230, 1), .next(240, nil), .completed(250),
            ] as [Recorded<Event<Int?>>])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, nil), .next(230, 1), .next(240, nil), .completed(250)])
    }

    func testKeySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(
            "^abcd|", values: ["a": "apple", "b": "avocado", "c": "banana", "d": "blueberry"])
        let res = scheduler.start { xs.distinctUntilChanged { $0.first } }
        XCTAssertMarbles(res, "^a-c-|", values: ["a": "apple", "c": "banana"])
    }

    func testThrowingKeySelectorErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab--c|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { () -> Observable<Int> in
            xs.distinctUntilChanged { (value: Int) -> Int in
                if value == 2 { throw testError }
                return value
            }
        }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testComparerReceivesThePreviousElementFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 2, "c": 3])
        var calls: [[Int]] = []
        let res = scheduler.start {
            xs.distinctUntilChanged { (previous: Int, next: Int) -> Bool in
                calls.append([previous, next])
                return false
            }
        }
        XCTAssertMarbles(res, "^abc|", values: ["a": 1, "b": 2, "c": 3])
        XCTAssertEqual(calls, [[1, 2], [2, 3]])
    }

    func testThrowingComparerErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab--|", values: ["a": 1, "b": 2])
        let res = scheduler.start { () -> Observable<Int> in
            xs.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw testError }
        }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testKeySelectorAndComparerCompareWithTheLastElementPassedOn() {
        // "Close enough" is not transitive: 2 is dropped as close to 1, and 3 is then compared
        // with 1 (the last element passed on), not with 2.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abcd|", values: ["a": 10, "b": 20, "c": 30, "d": 31])
        var keys: [[Int]] = []
        let res = scheduler.start {
            xs.distinctUntilChanged(
                { $0 / 10 },
                comparer: { (previous: Int, next: Int) -> Bool in
                    keys.append([previous, next])
                    return abs(previous - next) < 2
                })
        }
        XCTAssertMarbles(res, "^a-c-|", values: ["a": 10, "c": 30])
        XCTAssertEqual(keys, [[1, 2], [1, 3], [3, 3]])
    }

    func testKeySelectorAndComparerThrowingComparer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { () -> Observable<Int> in
            xs.distinctUntilChanged({ $0 }, comparer: { (_: Int, _: Int) -> Bool in throw testError })
        }
        XCTAssertMarbles(res, "^a#", values: ["a": 1], error: testError)
    }

    func testKeyPath() {
        let scheduler = TestScheduler(initialClock: 0)
        let ann = Person(name: "Ann", age: 30)
        let older = Person(name: "Ann", age: 31)
        let bob = Person(name: "Bob", age: 31)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": ann, "b": older, "c": bob])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.name) }
        XCTAssertMarbles(res, "^a-c|", values: ["a": ann, "c": bob])
    }

    func testAReentrantDuplicateIsDropped() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.distinctUntilChanged().subscribe(onNext: { value in
            received.append(value)
            if value == 1 { subject.onNext(1) }
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(2)
        subject.onNext(1)
        XCTAssertEqual(received, [1, 2, 1])
        subscription.dispose()
    }
}
