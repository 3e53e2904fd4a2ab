import RxSwift
import RxTest
import XCTest

final class SequenceTests: RxLeakCheckingTestCase {
    func testOfWithSchedulerEmitsOneElementPerTick() {
        // One frame per tick: the scheduler sends one event per tick.
        let scheduler = TestScheduler(initialClock: 0, marbleFrame: 1)
        let res = scheduler.start { Observable.of(3, 1, 2, 4, scheduler: scheduler) }
        XCTAssertMarbles(res, "^3124|", values: ["1": 1, "2": 2, "3": 3, "4": 4])
    }

    func testOfWithSchedulerDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) { Observable.of(3, 1, 2, 4, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 3), .next(202, 1)])
    }

    func testOfWithDefaultSchedulerIsSynchronous() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3) }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
    }

    func testOfNothingCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.of(scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testFromArrayWithScheduler() {
        // One frame per tick: the scheduler sends one event per tick.
        let scheduler = TestScheduler(initialClock: 0, marbleFrame: 1)
        let res = scheduler.start { Observable.from(["a", "b"], scheduler: scheduler) }
        XCTAssertMarbles(res, "^ab|", values: ["a": "a", "b": "b"])
    }

    func testFromArraySynchronous() {
        var events: [Event<Int>] = []
        _ = Observable.from([1, 2]).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .next(2), .completed])
    }

    func testFromSequenceWithScheduler() {
        // One frame per tick: the scheduler sends one event per tick.
        let scheduler = TestScheduler(initialClock: 0, marbleFrame: 1)
        let res = scheduler.start { Observable.from(stride(from: 0, to: 6, by: 2), scheduler: scheduler) }
        XCTAssertMarbles(res, "^024|", values: ["0": 0, "2": 2, "4": 4])
    }

    func testFromSequenceIteratesAFreshIteratorPerSubscription() {
        let source = Observable.from(Set([5]).union([6]).sorted().lazy.map { $0 * 10 })
        var events: [Event<Int>] = []
        _ = source.subscribe { events.append($0) }
        _ = source.subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(50), .next(60), .completed, .next(50), .next(60), .completed])
    }

    func testFromInfiniteSequenceStopsWhenDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 204) { Observable.from((1...).lazy.map { $0 }, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3)])
    }

    func testFromOptionalSome() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from(optional: 7) }
        XCTAssertEqual(res.events, [.next(200, 7), .completed(200)])
    }

    func testFromOptionalNone() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.from(optional: nil) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testFromOptionalSomeWithScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from(optional: 7, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 7), .completed(202)])
    }

    func testFromOptionalNoneWithScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.from(optional: nil, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(201)])
    }

    func testDisposingFromOnNextStopsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        var events: [Recorded<Event<Int>>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = Observable.of(1, 2, 3, scheduler: scheduler).subscribe { event in
                events.append(Recorded(time: scheduler.clock, value: event))
                if event.element == 2 { subscription?.dispose() }
            }
        }
        scheduler.start()
        XCTAssertEqual(events, [.next(201, 1), .next(202, 2)])
        subscription = nil
    }
}
