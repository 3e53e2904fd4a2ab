import Dispatch
import RxSwift
import RxTest
import XCTest

final class DelayTests: RxLeakCheckingTestCase {
    // MARK: virtual time

    func testShiftsElementsAndCompletionByTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable("a^b-c-|", values: ["a": 0, "b": 1, "c": 2])
        let res = scheduler.start { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertMarbles(res, "^---b-c-|", values: ["b": 1, "c": 2])
        // The source is disposed when it completes, not when the delayed completion is delivered.
        XCTAssertMarbles(xs.subscriptions, "^----!")
    }

    func testEachEventKeepsItsOwnDelayWhileOthersWait() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(250, 2), .next(255, 3), .next(350, 4), .completed(400),
        ])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(
            res.events, [.next(310, 1), .next(350, 2), .next(355, 3), .next(450, 4), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testSimultaneousEventsAreDeliveredOnePerRunAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .completed(210)])
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        // Each event after the first is rescheduled with a due time of zero, which the TestScheduler
        // runs one tick later.
        XCTAssertEqual(res.events, [.next(260, 1), .next(261, 2), .completed(262)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEmptyDelaysTheCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250, Int.self)])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(350)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testErrorIsDeliveredAtOnceAndDropsWaitingElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .error(260, testError)])
        let res = scheduler.start { xs.delay(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
    }

    func testErrorDuringADeliveryFollowsThatDelivery() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.delay(.seconds(50), scheduler: scheduler)
                .do(onNext: { if $0 == 1 { subject.onError(testError) } })
                .subscribe(observer)
        }
        scheduler.scheduleAt(210) { subject.onNext(1) }
        scheduler.scheduleAt(210) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(260, 1), .error(260, testError)])
        subscription?.dispose()
    }

    func testDisposedEarlyCancelsWhatIsWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .next(255, 3)])
        let res = scheduler.start(disposed: 320) { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(310, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 320)])
        // The run due at 350 was cancelled.
        XCTAssertEqual(scheduler.clock, 320)
    }

    func testColdSourceIsDelayedFromEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable("-a-b|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.delay(.seconds(20), scheduler: scheduler) }
        XCTAssertMarbles(res, "^--a-b|", values: ["a": 1, "b": 2])
        XCTAssertMarbles(xs.subscriptions, "^---!")
    }

    func testSynchronousSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2).delay(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(211, 2), .completed(212)])
    }

    // MARK: thread-sanitizer stress

    func testStressDeliveryRacingTheSourceOnAnotherThread() {
        for scheduler: SchedulerType in [
            SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.delay"),
            ConcurrentDispatchQueueScheduler(qos: .default),
        ] {
            for _ in 0..<3 {
                let subject = PublishSubject<Int>()
                let observer = GrammarRecorder<Int>()
                let subscription = subject.delay(.microseconds(300), scheduler: scheduler).subscribe(observer)
                let fed = BackgroundFeed.start {
                    for value in 0..<1_000 {
                        subject.onNext(value)
                        if value % 100 == 0 { usleep(200) }
                    }
                    subject.onCompleted()
                }
                XCTAssertEqual(fed.wait(timeout: .now() + 10), .success)
                XCTAssertTrue(observer.waitForTerminal())
                XCTAssertEqual(observer.violations, [])
                XCTAssertEqual(observer.terminal, "completed")
                assertCountsUp(observer.elements, to: 1_000)
                subscription.dispose()
            }
        }
    }

    func testStressErrorRacingDelivery() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for round in 0..<30 {
            let subject = PublishSubject<Int>()
            let observer = GrammarRecorder<Int>()
            let subscription = subject.delay(.microseconds(100), scheduler: scheduler).subscribe(observer)
            let fed = BackgroundFeed.start {
                for value in 0..<300 {
                    subject.onNext(value)
                    if value % 50 == 0 { usleep(UInt32(20 + round * 5)) }
                }
                subject.onError(testError)
            }
            XCTAssertEqual(fed.wait(timeout: .now() + 10), .success)
            XCTAssertTrue(observer.waitForTerminal())
            XCTAssertEqual(observer.violations, [])
            XCTAssertEqual(observer.terminal, "error(\(testError))")
            let values = observer.elements
            assertCountsUp(values)
            subscription.dispose()
        }
    }

    func testStressDisposalRacingDelivery() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for round in 0..<20 {
            let subject = PublishSubject<Int>()
            let observer = GrammarRecorder<Int>()
            let subscription = subject.delay(.microseconds(50), scheduler: scheduler).subscribe(observer)
            let fed = BackgroundFeed.start {
                for value in 0..<1_000 { subject.onNext(value) }
            }
            usleep(UInt32(50 + round * 10))
            subscription.dispose()
            XCTAssertEqual(fed.wait(timeout: .now() + 10), .success)
            XCTAssertEqual(observer.violations, [])
            XCTAssertNil(observer.terminal)
            let values = observer.elements
            assertCountsUp(values)
        }
    }
}
