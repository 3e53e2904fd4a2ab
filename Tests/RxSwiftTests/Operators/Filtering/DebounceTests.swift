import RxSwift
import RxTest
import XCTest

final class DebounceTests: RxLeakCheckingTestCase {
    func testPassesOnElementsFollowedByQuietTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, -1), .next(210, 1), .next(215, 2), .next(240, 3), .next(300, 4), .completed(400),
        ])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(235, 2), .next(260, 3), .next(320, 4), .completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    /// RxSwift's edge: completion does not drop the waiting element; it is delivered at once,
    /// followed by the completion at the same time.
    func testCompletionFlushesTheWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testErrorDropsTheWaitingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testErrorAfterTheElementWasDelivered() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(240, testError)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 1), .error(240, testError)])
    }

    /// A hot element at the tick its predecessor's timer is due was scheduled before that timer,
    /// so it supersedes the predecessor.
    func testElementAtTheTimersTickSupersedesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(250, 2), .completed(300)])
    }

    /// On a `TestScheduler` a zero due time runs one tick later (simulated processing delay).
    func testZeroDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.debounce(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .next(221, 2), .completed(230)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^--|")
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertMarbles(res, "^--|")
        XCTAssertMarbles(xs.subscriptions, "^--!")
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testColdSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(50, 2), .next(55, 3), .completed(100)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .next(265, 3), .completed(300)])
    }

    func testDisposalCancelsThePendingTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(300)])
        let res = scheduler.start(disposed: 240) { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testDisposalWithAWaitingElementDeliversNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start(disposed: 220) { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testDisposingFromInsideOnNextStopsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.debounce(.seconds(10), scheduler: scheduler).subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [1])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        subscription = nil
    }

    func testOnARealSchedulerTheLastElementOfABurstArrivesOnTheScheduler() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.debounce")
        let subject = PublishSubject<Int>()
        let delivered = expectation(description: "delivered")
        let received = SchedulerTestLog<Int>()
        let subscription = subject.debounce(.milliseconds(200), scheduler: scheduler).subscribe(onNext: {
            received.append($0)
            delivered.fulfill()
        })
        for value in 1...5 { subject.onNext(value) }
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(received.values, [5])
        subscription.dispose()
    }
}
