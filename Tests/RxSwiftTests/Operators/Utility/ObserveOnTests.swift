import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

final class ObserveOnTests: RxLeakCheckingTestCase {
    private let timeout: TimeInterval = 30

    // MARK: virtual time

    func testDeliversEachEventOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 2), .next(241, 3), .completed(301)])
        // As in RxSwift, a testable observable's subscription ends when it emits its terminal event.
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testEventsThatQueueUpAreDeliveredOnePerRun() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(210, 3), .completed(210)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .next(212, 2), .next(213, 3), .completed(214)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testJustAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(1).observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .completed(202)])
    }

    func testWithoutProcessingDelayDeliversAtTheSameTime() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .completed(220)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(210, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(scheduler.clock, 1000)
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250, Int.self)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.completed(251)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testErrorUpstream() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError), .next(230, 2)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1), .error(221, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testColdSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .completed(30)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, "a"), .next(221, "b"), .completed(231)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDisposalDropsQueuedEventsAndCancelsThePendingRun() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(300, 3)])
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = xs.observe(on: scheduler).subscribe(observer) }
        // Scheduled after the hot events, so it runs at 210 right after they were queued.
        scheduler.scheduleAt(210) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        // The run that was pending for 211 was cancelled, so the clock went from 210 to the
        // hot observable's next event.
        XCTAssertEqual(scheduler.clock, 300)
    }

    func testDisposingFromInsideOnNextDropsTheRest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(210, 3)])
        var received: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.observe(on: scheduler).subscribe(onNext: { value in
                received.append(value)
                if value == 2 { subscription?.dispose() }
            })
        }
        scheduler.start()
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 212)])
        XCTAssertEqual(scheduler.clock, 212)
    }

    func testReentrantEventsAreQueuedBehindTheCurrentOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var received: [Recorded<Int>] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
                received.append(Recorded(time: scheduler.clock, value: value))
                if value < 3 { subject.onNext(value + 1) }
            })
            subject.onNext(1)
        }
        scheduler.start()
        XCTAssertEqual(received.map(\.time), [201, 202, 203])
        XCTAssertEqual(received.map(\.value), [1, 2, 3])
        subscription?.dispose()
    }

    func testOnTheTrampolineDeliversAfterTheCurrentWork() {
        var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = Observable.of(1, 2).observe(on: CurrentThreadScheduler.instance).subscribe(onNext: {
                log.append("\($0)")
            })
            log.append("subscribed")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["subscribed", "1", "2"])
    }

    // MARK: serial dispatch queue

    func testSerialQueueDeliversEverythingInOrderOnTheQueue() {
        let marker = QueueMarker()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.observeOn") { marker.mark($0) }
        let subject = PublishSubject<Int>()
        let received = SchedulerTestLog<Int>()
        let offQueue = Atomic<Int>(0)
        let completed = expectation(description: "completed")
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { value in
                if !marker.isCurrent { offQueue.wrappingAdd(1, ordering: .relaxed) }
                received.append(value)
            },
            onCompleted: {
                if !marker.isCurrent { offQueue.wrappingAdd(1, ordering: .relaxed) }
                completed.fulfill()
            })
        for value in 0..<1_000 { subject.onNext(value) }
        subject.onCompleted()
        wait(for: [completed], timeout: timeout)
        XCTAssertEqual(received.values, Array(0..<1_000))
        XCTAssertEqual(offQueue.load(ordering: .relaxed), 0)
        subscription.dispose()
    }

    func testSerialQueueErrorIsDeliveredOnTheQueue() {
        let marker = QueueMarker()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.observeOn.error") {
            marker.mark($0)
        }
        let failed = expectation(description: "error")
        let subscription = Observable<Int>.error(testError).observe(on: scheduler).subscribe(onError: { error in
            XCTAssertEqual(error as? TestError, testError)
            XCTAssertTrue(marker.isCurrent)
            failed.fulfill()
        })
        wait(for: [failed], timeout: timeout)
        subscription.dispose()
    }

    func testSerialQueueEmptyAndNever() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.observeOn.empty")
        let completed = expectation(description: "completed")
        let nexts = Atomic<Int>(0)
        let empty = Observable<Int>.empty().observe(on: scheduler).subscribe(onCompleted: { completed.fulfill() })
        let never = Observable<Int>.never().observe(on: scheduler).subscribe(onNext: { _ in
            nexts.wrappingAdd(1, ordering: .relaxed)
        })
        wait(for: [completed], timeout: timeout)
        never.dispose()
        empty.dispose()
        XCTAssertEqual(nexts.load(ordering: .relaxed), 0)
    }

    func testSerialQueueDisposalDropsEnqueuedEvents() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.observeOn.dispose")
        let subject = PublishSubject<Int>()
        let received = SchedulerTestLog<String>()
        let blocking = DispatchSemaphore(value: 0)
        let unblock = DispatchSemaphore(value: 0)
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { value in
                if value == 0 {
                    blocking.signal()
                    _ = unblock.wait(timeout: .now() + 30)
                }
                received.append("\(value)")
            },
            onError: { _ in received.append("error") },
            onCompleted: { received.append("completed") })
        subject.onNext(0)
        XCTAssertEqual(blocking.wait(timeout: .now() + timeout), .success)
        // The queue is busy delivering 0: these wait in the queue behind it.
        subject.onNext(1)
        subject.onCompleted()
        subscription.dispose()
        unblock.signal()
        let drained = expectation(description: "drained")
        _ = scheduler.schedule(()) { _ in
            drained.fulfill()
            return Disposables.create()
        }
        wait(for: [drained], timeout: timeout)
        XCTAssertEqual(received.values, ["0"])
    }

    func testSerialQueueKeepsTheOrderOfEventsFromDifferentSubscriptions() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.observeOn.shared")
        let first = PublishSubject<String>()
        let second = PublishSubject<String>()
        let received = SchedulerTestLog<String>()
        let gate = DispatchSemaphore(value: 0)
        // Hold the queue so that every event below is waiting in it.
        _ = scheduler.schedule(()) { _ in
            _ = gate.wait(timeout: .now() + 30)
            return Disposables.create()
        }
        let a = first.observe(on: scheduler).subscribe(onNext: { received.append($0) })
        let b = second.observe(on: scheduler).subscribe(onNext: { received.append($0) })
        first.onNext("a1")
        first.onNext("a2")
        second.onNext("b1")
        first.onNext("a3")
        second.onNext("b2")
        gate.signal()
        let drained = expectation(description: "drained")
        _ = scheduler.schedule(()) { _ in
            drained.fulfill()
            return Disposables.create()
        }
        wait(for: [drained], timeout: timeout)
        // One queue block per event, as in RxSwift: the emission order across subscriptions holds.
        XCTAssertEqual(received.values, ["a1", "a2", "b1", "a3", "b2"])
        a.dispose()
        b.dispose()
    }

    func testMainSchedulerInstanceDeliversAtOnceOnTheMainThread() {
        var received: [Int] = []
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: MainScheduler.instance).subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, [1, 2])
        subscription.dispose()
    }

    func testMainSchedulerFromABackgroundThreadDeliversOnTheMainThread() {
        let subject = PublishSubject<Int>()
        let received = SchedulerTestLog<Int>()
        let completed = expectation(description: "completed")
        let subscription = subject.observe(on: MainScheduler.instance).subscribe(
            onNext: { value in
                XCTAssertTrue(Thread.isMainThread)
                received.append(value)
            },
            onCompleted: {
                XCTAssertTrue(Thread.isMainThread)
                completed.fulfill()
            })
        DispatchQueue.global().async {
            for value in 0..<100 { subject.onNext(value) }
            subject.onCompleted()
        }
        wait(for: [completed], timeout: timeout)
        XCTAssertEqual(received.values, Array(0..<100))
        subscription.dispose()
    }

    func testMainSchedulerAsyncInstanceDeliversLater() {
        var received: [Int] = []
        let completed = expectation(description: "completed")
        let subscription = Observable.of(1, 2).observe(on: MainScheduler.asyncInstance).subscribe(
            onNext: { received.append($0) }, onCompleted: { completed.fulfill() })
        XCTAssertEqual(received, [])
        wait(for: [completed], timeout: timeout)
        XCTAssertEqual(received, [1, 2])
        subscription.dispose()
    }

    // MARK: concurrent dispatch queue

    func testConcurrentSchedulerDeliversInOrderAndNeverConcurrently() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let subject = PublishSubject<Int>()
        let received = SchedulerTestLog<Int>()
        let overlap = OverlapDetector()
        let completed = expectation(description: "completed")
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { value in
                overlap.enter()
                if value % 100 == 0 { usleep(500) }
                received.append(value)
                overlap.leave()
            },
            onCompleted: { completed.fulfill() })
        for value in 0..<1_000 { subject.onNext(value) }
        subject.onCompleted()
        wait(for: [completed], timeout: timeout)
        XCTAssertEqual(received.values, Array(0..<1_000))
        XCTAssertEqual(overlap.maximumInside, 1)
        subscription.dispose()
    }

    func testConcurrentSchedulerStressWithDisposalRacingDelivery() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        for _ in 0..<50 {
            let subject = PublishSubject<Int>()
            let received = SchedulerTestLog<Int>()
            let subscription = subject.observe(on: scheduler).subscribe(onNext: { received.append($0) })
            let emitted = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<200 { subject.onNext(value) }
                emitted.signal()
            }
            usleep(100)
            subscription.dispose()
            XCTAssertEqual(emitted.wait(timeout: .now() + timeout), .success)
            let values = received.values
            XCTAssertEqual(values, Array(0..<values.count))
        }
    }

    func testSerialSchedulerStressWithDisposalRacingDelivery() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.observeOn.stress")
        for _ in 0..<50 {
            let subject = PublishSubject<Int>()
            let received = SchedulerTestLog<Int>()
            let subscription = subject.observe(on: scheduler).subscribe(onNext: { received.append($0) })
            let emitted = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for value in 0..<200 { subject.onNext(value) }
                emitted.signal()
            }
            usleep(100)
            subscription.dispose()
            XCTAssertEqual(emitted.wait(timeout: .now() + timeout), .success)
            let values = received.values
            XCTAssertEqual(values, Array(0..<values.count))
        }
    }

    @available(*, deprecated)
    func testDeprecatedSpelling() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(1).observeOn(scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .completed(202)])
    }
}
