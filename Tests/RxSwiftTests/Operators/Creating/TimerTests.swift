import RxSwift
import RxTest
import XCTest

final class TimerTests: RxLeakCheckingTestCase {
    func testTimerEmitsZeroAfterDueTimeThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(100), scheduler: scheduler) }
        XCTAssertMarbles(res, "^---------(0|)", values: ["0": 0])
    }

    func testTimerHonoursTheSchedulerResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let res = scheduler.start { Observable<Int>.timer(.seconds(3), scheduler: scheduler) }
        XCTAssertMarbles(res, "^--(0|)", values: ["0": 0])
    }

    func testTimerZeroDueTimeRunsOnTheNextTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 0), .completed(201)])
    }

    func testTimerDisposedBeforeDueTimeEmitsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 299) { Observable<Int>.timer(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testTimerWithPeriodTicksAfterDueTimeThenEveryPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 400) {
            Observable<Int>.timer(.seconds(50), period: .seconds(30), scheduler: scheduler)
        }
        XCTAssertMarbles(res, "^----0--1--2--3--4", values: ["0": 0, "1": 1, "2": 2, "3": 3, "4": 4])
    }

    func testIntervalTicksEveryPeriodUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int64>.interval(.seconds(100), scheduler: scheduler) }
        // Disposal at 1000 was scheduled before the tick due then, so it wins the tie.
        XCTAssertEqual(
            res.events,
            [
                .next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3), .next(700, 4), .next(800, 5),
                .next(900, 6),
            ])
    }

    func testIntervalDisposedFromOnNextStopsTicking() {
        let scheduler = TestScheduler(initialClock: 0)
        var events: [Recorded<Event<Int>>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(0) {
            subscription = Observable<Int>.interval(.seconds(10), scheduler: scheduler).subscribe { event in
                events.append(Recorded(time: scheduler.clock, value: event))
                if event.element == 2 { subscription?.dispose() }
            }
        }
        scheduler.start()
        XCTAssertEqual(events, [.next(10, 0), .next(20, 1), .next(30, 2)])
        XCTAssertEqual(scheduler.clock, 30)
        subscription = nil
    }

    func testIntervalSubscriptionsAreIndependent() {
        let scheduler = TestScheduler(initialClock: 0)
        let interval = Observable<Int>.interval(.seconds(10), scheduler: scheduler)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(0) { subscriptions.append(interval.subscribe(first)) }
        scheduler.scheduleAt(15) { subscriptions.append(interval.subscribe(second)) }
        scheduler.scheduleAt(40) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(10, 0), .next(20, 1), .next(30, 2)])
        XCTAssertEqual(second.events, [.next(25, 0), .next(35, 1)])
    }
}
