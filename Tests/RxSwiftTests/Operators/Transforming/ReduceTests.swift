import RxSwift
import RxTest
import XCTest

final class ReduceTests: RxLeakCheckingTestCase {
    func testEmitsTheFinalAccumulatorWhenTheSourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^b-cd--|", values: ["a": 100, "b": 1, "c": 2, "d": 3])
        let res = scheduler.start { xs.reduce(10) { $0 + $1 } }
        XCTAssertMarbles(res, "^------(R|)", values: ["R": 16])
        XCTAssertMarbles(xs.subscriptions, "^------!")
    }

    func testMapResultTransformsTheFinalAccumulator() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.reduce(0, accumulator: +, mapResult: { "sum \($0)" }) }
        XCTAssertMarbles(res, "^--(r|)", values: ["r": "sum 3"])
    }

    func testEmptyEmitsTheSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        let res = scheduler.start { xs.reduce(42, accumulator: +) }
        XCTAssertMarbles(res, "^--(s|)", values: ["s": 42])
    }

    func testEmptyWithMapResultEmitsTheMappedSeed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-|")
        let res = scheduler.start { xs.reduce(7, accumulator: +, mapResult: { $0 * 2 }) }
        XCTAssertMarbles(res, "^-(s|)", values: ["s": 14])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start { xs.reduce(0, accumulator: +) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testUpstreamErrorEmitsNoResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab#", values: ["a": 1, "b": 2], error: testError)
        let res = scheduler.start { xs.reduce(0, accumulator: +) }
        XCTAssertMarbles(res, "^--#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testThrowingAccumulatorErrorsAndDisposesSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^abc|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { () -> Observable<Int> in
            xs.reduce(0) { sum, value in
                if value == 2 { throw testError }
                return sum + value
            }
        }
        XCTAssertMarbles(res, "^-#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^-!")
    }

    func testThrowingMapResultErrorsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab-|", values: ["a": 1, "b": 2])
        let res = scheduler.start { () -> Observable<String> in
            xs.reduce(0, accumulator: +, mapResult: { _ in throw testError })
        }
        XCTAssertMarbles(res, "^---#", error: testError)
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testDisposedEarlyEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("^ab---|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 240) { xs.reduce(0, accumulator: +) }
        XCTAssertEqual(res.events, [])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testEverySubscriptionStartsFromTheSeed() {
        let reduce = Observable.of(1, 2, 3).reduce([Int]()) { $0 + [$1] }
        var results: [[Int]] = []
        _ = reduce.subscribe(onNext: { results.append($0) })
        _ = reduce.subscribe(onNext: { results.append($0) })
        XCTAssertEqual(results, [[1, 2, 3], [1, 2, 3]])
    }

    func testResultIsDeliveredBeforeCompletionOnTheSourceThread() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let subscription = subject.reduce(0, accumulator: +).subscribe(
            onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
        subject.onNext(4)
        subject.onNext(5)
        XCTAssertEqual(log, [])
        subject.onCompleted()
        XCTAssertEqual(log, ["next 9", "completed"])
        subscription.dispose()
    }
}
