import RxSwift
import RxTest
import XCTest

final class RangeTests: RxLeakCheckingTestCase {
    func testRangeWithSchedulerEmitsOnePerTick() {
        // One frame per tick: the scheduler sends one event per tick.
        let scheduler = TestScheduler(initialClock: 0, marbleFrame: 1)
        let res = scheduler.start { Observable.range(start: 5, count: 3, scheduler: scheduler) }
        XCTAssertMarbles(res, "^567|", values: ["5": 5, "6": 6, "7": 7])
    }

    func testRangeZeroCountCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: 5, count: 0, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testRangeDefaultSchedulerIsSynchronous() {
        var events: [Event<Int>] = []
        _ = Observable.range(start: -1, count: 3).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(-1), .next(0), .next(1), .completed])
    }

    func testRangeUpToTheLargestValueDoesNotOverflow() {
        var events: [Event<Int8>] = []
        _ = Observable<Int8>.range(start: 126, count: 2).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(126), .next(127), .completed])
    }

    func testRangeDisposedEarly() {
        // One frame per tick: the scheduler sends one event per tick.
        let scheduler = TestScheduler(initialClock: 0, marbleFrame: 1)
        let res = scheduler.start(disposed: 203) { Observable.range(start: 0, count: 100, scheduler: scheduler) }
        XCTAssertMarbles(res, "^01", values: ["0": 0, "1": 1])
    }

    func testGenerateFinite() {
        // One frame per tick: the scheduler sends one event per tick.
        let scheduler = TestScheduler(initialClock: 0, marbleFrame: 1)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { $0 <= 3 }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        XCTAssertMarbles(res, "^0123|", values: ["0": 0, "1": 1, "2": 2, "3": 3])
    }

    func testGenerateFalseInitialConditionCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 10, condition: { $0 < 3 }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testGenerateThrowingCondition() {
        let scheduler = TestScheduler(initialClock: 0)
        var iterations = 0
        let res = scheduler.start {
            Observable.generate(
                initialState: 0,
                condition: { value in
                    if value == 2 { throw testError }
                    return true
                }, scheduler: scheduler,
                iterate: { value in
                    iterations += 1
                    return value + 1
                })
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .error(203, testError)])
        XCTAssertEqual(iterations, 2)
    }

    func testGenerateThrowingIterate() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(
                initialState: 0, condition: { _ in true }, scheduler: scheduler,
                iterate: { value in
                    if value == 1 { throw testError }
                    return value + 1
                })
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .error(203, testError)])
    }

    func testGenerateDisposedEarlyStopsIterating() {
        let scheduler = TestScheduler(initialClock: 0)
        var iterations = 0
        let res = scheduler.start(disposed: 203) {
            Observable.generate(
                initialState: 0, condition: { _ in true }, scheduler: scheduler,
                iterate: { value in
                    iterations += 1
                    return value + 1
                })
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1)])
        XCTAssertEqual(iterations, 1)
    }

    func testGenerateDefaultSchedulerIsSynchronous() {
        var events: [Event<String>] = []
        _ = Observable.generate(initialState: "", condition: { $0.count < 3 }, iterate: { $0 + "x" })
            .subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(""), .next("x"), .next("xx"), .completed])
    }

    func testRepeatElementEmitsEveryTickUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 207) { Observable.repeatElement(42, scheduler: scheduler) }
        XCTAssertEqual(
            res.events,
            [.next(201, 42), .next(202, 42), .next(203, 42), .next(204, 42), .next(205, 42), .next(206, 42)])
    }

    func testRepeatElementDisposedFromOnNextOnDefaultScheduler() {
        // Inside a running trampoline the source's steps are queued, so `subscribe` returns first and
        // the subscriber can stop an infinite synchronous source from its onNext.
        var received = 0
        var subscription: Disposable?
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            subscription = Observable.repeatElement("x").subscribe(onNext: { _ in
                received += 1
                if received == 3 { subscription?.dispose() }
            })
            return Disposables.create()
        }
        XCTAssertEqual(received, 3)
        subscription = nil
    }
}
