import RxSwift
import RxTest
import XCTest

final class JustTests: RxLeakCheckingTestCase {
    func testJustEmitsAndCompletesAtSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(42) }
        XCTAssertEqual(res.events, [.next(200, 42), .completed(200)])
    }

    func testJustIsColdAndSynchronous() {
        let just = Observable.just("a")
        var events: [Event<String>] = []
        _ = just.subscribe { events.append($0) }
        _ = just.subscribe { events.append($0) }
        XCTAssertEqual(events, [.next("a"), .completed, .next("a"), .completed])
    }

    func testJustWithSchedulerEmitsAndCompletesOnSeparateTicks() {
        // One frame per tick: the scheduler sends the element and the completion on separate ticks.
        let scheduler = TestScheduler(initialClock: 0, marbleFrame: 1)
        let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
        XCTAssertMarbles(res, "^a|", values: ["a": 42])
    }

    func testJustWithSchedulerDisposedBeforeElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 200) { Observable.just(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testJustWithSchedulerDisposedAtTheElementCancelsCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        var events: [Recorded<Event<Int>>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = Observable.just(42, scheduler: scheduler).subscribe { event in
                events.append(Recorded(time: scheduler.clock, value: event))
                subscription?.dispose()
            }
        }
        scheduler.start()
        XCTAssertEqual(events, [.next(201, 42)])
        subscription = nil
    }
}
