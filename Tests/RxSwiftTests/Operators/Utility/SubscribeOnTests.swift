import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

final class SubscribeOnTests: RxLeakCheckingTestCase {
    private let timeout: TimeInterval = 30

    // MARK: virtual time

    func testSubscribesAndDisposesOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var subscribedAt: TestTime?
        var disposedAt: TestTime?
        let xs = Observable<Int>.create { _ in
            subscribedAt = scheduler.clock
            return Disposables.create { disposedAt = scheduler.clock }
        }
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(subscribedAt, 201)
        XCTAssertEqual(disposedAt, 1001)
    }

    // A testable observable is a hand-written `ObservableType`: as in RxSwift, it is subscribed
    // directly and its subscription ends when the disposal scheduled after the terminal event runs.
    func testEventsAreNotMoved() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 1001)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(300, Int.self)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testErrorUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, testError)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(300, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testColdSourceStartsWhenSubscribedOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20, Int.self)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .completed(221)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 222)])
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 251)])
    }

    func testDisposedBeforeTheScheduledSubscriptionRanNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            let subscription = xs.subscribe(on: scheduler).subscribe(observer)
            subscription.dispose()
        }
        scheduler.start()
        XCTAssertEqual(observer.events, [])
        XCTAssertEqual(xs.subscriptions, [])
        XCTAssertEqual(scheduler.clock, 300)
    }

    func testSynchronousSourceDeliversOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(1).subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .completed(201)])
    }

    // MARK: real queues

    func testSubscriptionAndDisposalHappenOnTheQueue() {
        let marker = QueueMarker()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.subscribeOn") {
            marker.mark($0)
        }
        let subscribed = expectation(description: "subscribed")
        let disposed = expectation(description: "disposed")
        let xs = Observable<Int>.create { _ in
            XCTAssertTrue(marker.isCurrent)
            subscribed.fulfill()
            return Disposables.create {
                XCTAssertTrue(marker.isCurrent)
                disposed.fulfill()
            }
        }
        let subscription = xs.subscribe(on: scheduler).subscribe()
        wait(for: [subscribed], timeout: timeout)
        subscription.dispose()
        wait(for: [disposed], timeout: timeout)
    }

    func testEventsArriveFromTheQueueWhenTheSourceIsSynchronous() {
        let marker = QueueMarker()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.subscribeOn.events") {
            marker.mark($0)
        }
        let received = SchedulerTestLog<Int>()
        let completed = expectation(description: "completed")
        let subscription = Observable.of(1, 2, 3).subscribe(on: scheduler).subscribe(
            onNext: { value in
                XCTAssertTrue(marker.isCurrent)
                received.append(value)
            },
            onCompleted: {
                XCTAssertTrue(marker.isCurrent)
                completed.fulfill()
            })
        wait(for: [completed], timeout: timeout)
        XCTAssertEqual(received.values, [1, 2, 3])
        subscription.dispose()
    }

    func testDisposalRacingTheScheduledSubscriptionIsSafe() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let subscribes = Atomic<Int>(0)
        let disposes = Atomic<Int>(0)
        let xs = Observable<Int>.create { _ in
            subscribes.wrappingAdd(1, ordering: .relaxed)
            return Disposables.create { disposes.wrappingAdd(1, ordering: .relaxed) }
        }
        for _ in 0..<200 {
            xs.subscribe(on: scheduler).subscribe().dispose()
        }
        // Every subscription that happened is disposed, on the scheduler, eventually.
        func settle() {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline && disposes.load(ordering: .relaxed) != subscribes.load(ordering: .relaxed) {
                usleep(1_000)
            }
        }
        settle()
        usleep(100_000)
        settle()
        XCTAssertEqual(disposes.load(ordering: .relaxed), subscribes.load(ordering: .relaxed))
    }

    @available(*, deprecated)
    func testDeprecatedSpelling() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(300, Int.self)])
        _ = scheduler.start { xs.subscribeOn(scheduler) }
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testObservableSourceIsDisposedAtItsTerminalEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.asObservable().subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(300)])
        // `asObservable()` ends its own subscription at the terminal event, in RxSwift too.
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 300)])
    }
}
