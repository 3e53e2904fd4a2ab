import RxBlocking
import RxSwift
import RxTest
import XCTest

final class ThrottleTests: RxLeakCheckingTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>?) -> TestableObservable<Int> {
        var events: [Recorded<Event<Int>>] = [
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .next(410, 6), .next(450, 7),
        ]
        if let end { events.append(end) }
        return scheduler.createHotObservable(events)
    }

    // MARK: - latest: true

    /// The first element passes at once; 3, 4 and 5 fall in the window that ends at 410, where 6
    /// arrives and passes at once (the hot element is scheduled before the timer), dropping 5; 7 is
    /// kept and delivered at the end of the next window (610), and the completion at 500 waits for it.
    func testLatestCompletionWaitsForTheKeptElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(500))
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testLatestCompletionAfterTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(900))
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 900)])
    }

    func testLatestNoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: nil)
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .next(610, 7)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testLatestErrorDropsTheKeptElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .error(350, testError), .next(450, 7),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(350, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
    }

    /// The window is measured from the last element passed on: the kept element goes out when that
    /// window ends, and starts the next window.
    func testLatestKeptElementStartsTheNextWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(235, 3), .next(245, 4), .next(300, 5), .completed(400),
        ])
        let res = scheduler.start { xs.throttle(.seconds(30), scheduler: scheduler) }
        // 1 at 210; 2 and 3 kept, 3 out at 240; 4 kept, out at 270; 5 arrives after the window.
        XCTAssertEqual(res.events, [.next(210, 1), .next(240, 3), .next(270, 4), .next(300, 5), .completed(400)])
    }

    func testLatestColdSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(35, 3), .completed(100)])
        let res = scheduler.start { xs.throttle(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(240, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    /// RxSwift's arithmetic: the time left is rounded in the unit of the due time. With ticks of
    /// 0.1 s, `.seconds(1)` lets an element 0.6 s after the last one through at once (0.4 s rounds
    /// to 0) and keeps one that comes 0.4 s after it for a whole second.
    func testRemainingTimeIsRoundedInTheUnitOfTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(216, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.throttle(.seconds(1), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(216, 2), .next(230, 3), .completed(300)])
    }

    func testMillisecondsAreRoundedToWholeMilliseconds() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(216, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.throttle(.milliseconds(1_000), scheduler: scheduler) }
        // 2 is kept until 220, where 3 arrives (scheduled before the timer) and passes, dropping 2.
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 3), .completed(300)])
    }

    func testZeroDueTimePassesEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(211, 3), .completed(220)])
        let res = scheduler.start { xs.throttle(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(210, 2), .next(211, 3), .completed(220)])
    }

    func testLatestNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 0)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testLatestEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testDisposalCancelsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(500)])
        let res = scheduler.start(disposed: 300) { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testDisposingFromInsideOnNextStopsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.throttle(.seconds(30), scheduler: scheduler).subscribe(onNext: { value in
                received.append(value)
                if value == 3 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [1, 3])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        subscription = nil
    }

    // MARK: - latest: false

    func testNotLatestDropsElementsInsideTheWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(500))
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testNotLatestNoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: nil)
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testNotLatestError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .error(410, testError),
            .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(410, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 410)])
    }

    func testNotLatestNeverAndEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createHotObservable([Recorded<Event<Int>>.next(150, 0)])
        let empty = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let neverObserver = scheduler.createObserver(Int.self)
        let emptyObserver = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(
                never.throttle(.seconds(200), latest: false, scheduler: scheduler).subscribe(neverObserver))
            subscriptions.append(
                empty.throttle(.seconds(200), latest: false, scheduler: scheduler).subscribe(emptyObserver))
        }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        XCTAssertEqual(neverObserver.events, [])
        XCTAssertEqual(emptyObserver.events, [.completed(500)])
        XCTAssertEqual(never.subscriptions, [Subscription(200, 1000)])
    }

    // MARK: - Real schedulers

    func testLatestOnARealSchedulerDeliversTheLastElementAfterTheWindow() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let values = try? Observable.from([0, 1, 2])
            .throttle(.milliseconds(100), scheduler: scheduler)
            .toBlocking(timeout: 5)
            .toArray()
        XCTAssertEqual(values, [0, 2])
    }

    func testNotLatestOnARealSchedulerCompletesAtOnce() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let values = try? Observable.from([0, 1, 2])
            .throttle(.seconds(2), latest: false, scheduler: scheduler)
            .toBlocking(timeout: 1)
            .toArray()
        XCTAssertEqual(values, [0])
    }
}
