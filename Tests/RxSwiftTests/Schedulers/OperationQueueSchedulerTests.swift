// Built with the package's OperationQueueScheduler trait (on by default), like the scheduler itself.
#if OperationQueueScheduler
    import Dispatch
    import Foundation
    import RxBlocking
    import RxSwift
    import RxTest
    import Synchronization
    import XCTest

    final class OperationQueueSchedulerTests: RxLeakCheckingTestCase {
        private let timeout: TimeInterval = 30

        private func serialQueue(suspended: Bool = false) -> OperationQueue {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = suspended
            return queue
        }

        func testInitKeepsTheQueueAndTheNormalPriorityByDefault() {
            let queue = OperationQueue()
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            XCTAssertTrue(scheduler.operationQueue === queue)
            XCTAssertEqual(scheduler.queuePriority, .normal)
            XCTAssertEqual(
                OperationQueueScheduler(operationQueue: queue, queuePriority: .veryHigh).queuePriority, .veryHigh)
        }

        func testIsAnImmediateSchedulerOnlyAsInRxSwift() {
            // An operation queue knows no time: like RxSwift's, the scheduler cannot serve timers.
            let scheduler: Any = OperationQueueScheduler(operationQueue: OperationQueue())
            XCTAssertTrue(scheduler is any ImmediateSchedulerType)
            XCTAssertFalse(scheduler is any SchedulerType)
        }

        func testScheduleRunsTheActionWithItsStateOnTheQueue() {
            let queue = OperationQueue()
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let done = expectation(description: "ran")
            _ = scheduler.schedule(5) { state in
                XCTAssertEqual(state, 5)
                XCTAssertTrue(OperationQueue.current === queue)
                done.fulfill()
                return Disposables.create()
            }
            wait(for: [done], timeout: timeout)
        }

        func testScheduleDoesNotRunTheActionBeforeTheQueueDoes() {
            let queue = serialQueue(suspended: true)
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let ran = Atomic(false)
            let scheduled = scheduler.schedule(()) { _ in
                ran.store(true, ordering: .relaxed)
                return Disposables.create()
            }
            XCTAssertEqual(queue.operationCount, 1)
            XCTAssertFalse(ran.load(ordering: .relaxed))
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            XCTAssertTrue(ran.load(ordering: .relaxed))
            scheduled.dispose()
        }

        func testOperationsCarryTheSchedulersPriority() {
            let queue = serialQueue(suspended: true)
            _ = OperationQueueScheduler(operationQueue: queue, queuePriority: .high).schedule(()) { _ in
                Disposables.create()
            }
            _ = OperationQueueScheduler(operationQueue: queue, queuePriority: .veryLow).schedule(()) { _ in
                Disposables.create()
            }
            XCTAssertEqual(
                queue.operations.map(\.queuePriority).sorted { $0.rawValue > $1.rawValue }, [.high, .veryLow])
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
        }

        func testHigherPriorityWorkRunsFirst() {
            // Both wait in a suspended one-at-a-time queue; the queue starts the higher priority first.
            let queue = serialQueue(suspended: true)
            let order = SchedulerTestLog<String>()
            let low = OperationQueueScheduler(operationQueue: queue, queuePriority: .low)
            let high = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
            _ = low.schedule(()) { _ in
                order.append("low")
                return Disposables.create()
            }
            _ = high.schedule(()) { _ in
                order.append("high")
                return Disposables.create()
            }
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            XCTAssertEqual(order.values, ["high", "low"])
        }

        func testDisposingBeforeTheRunCancelsIt() {
            let queue = serialQueue(suspended: true)
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let ran = Atomic(false)
            let released = expectation(description: "state released at disposal")
            let scheduled = scheduler.schedule(ReleaseSignal { released.fulfill() }) { _ in
                ran.store(true, ordering: .relaxed)
                return Disposables.create()
            }
            scheduled.dispose()
            // The action and its state go at disposal, not when the suspended queue gets to them.
            wait(for: [released], timeout: timeout)
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            XCTAssertFalse(ran.load(ordering: .relaxed))
        }

        func testDisposingAfterTheRunDisposesWhatTheActionReturned() {
            let queue = serialQueue()
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let inner = BooleanDisposable()
            let scheduled = scheduler.schedule(()) { _ in inner }
            queue.waitUntilAllOperationsAreFinished()
            XCTAssertFalse(inner.isDisposed)
            scheduled.dispose()
            XCTAssertTrue(inner.isDisposed)
        }

        func testDisposingDuringTheRunDisposesWhatTheActionReturns() {
            let queue = serialQueue()
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let inner = BooleanDisposable()
            let started = DispatchSemaphore(value: 0)
            let disposed = DispatchSemaphore(value: 0)
            let scheduled = scheduler.schedule(()) { _ in
                started.signal()
                _ = disposed.wait(timeout: .now() + 30)
                return inner
            }
            XCTAssertEqual(started.wait(timeout: .now() + 30), .success)
            scheduled.dispose()
            disposed.signal()
            queue.waitUntilAllOperationsAreFinished()
            XCTAssertTrue(inner.isDisposed)
        }

        func testRespectsTheQueuesConcurrencyLimit() {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 2
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let overlap = OverlapDetector()
            for _ in 0..<12 {
                _ = scheduler.schedule(()) { _ in
                    overlap.enter()
                    usleep(2000)
                    overlap.leave()
                    return Disposables.create()
                }
            }
            queue.waitUntilAllOperationsAreFinished()
            XCTAssertLessThanOrEqual(overlap.maximumInside, 2)
        }

        func testObserveOnDeliversOnTheQueueInOrder() throws {
            let queue = serialQueue()
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let source = Observable.range(start: 1, count: 50).observe(on: scheduler)
                .map { ($0, OperationQueue.current === queue) }
            let received = try source.toBlocking(timeout: timeout).toArray()
            XCTAssertEqual(received.map(\.0), Array(1...50))
            XCTAssertTrue(received.allSatisfy(\.1))
        }

        func testObserveOnForwardsErrors() {
            let scheduler = OperationQueueScheduler(operationQueue: serialQueue())
            let source = Observable<Int>.error(testError).observe(on: scheduler)
            XCTAssertThrowsError(try source.toBlocking(timeout: timeout).toArray()) { error in
                XCTAssertEqual(error as? TestError, testError)
            }
        }

        func testSubscribeOnSubscribesOnTheQueue() throws {
            let queue = serialQueue()
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let source = Observable<Bool>.deferred { .just(OperationQueue.current === queue) }
                .subscribe(on: scheduler)
            XCTAssertEqual(try source.toBlocking(timeout: timeout).toArray(), [true])
        }

        func testSubscribeOnDisposesOnTheQueue() {
            let queue = serialQueue()
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let disposedOnQueue = expectation(description: "disposed on the queue")
            let subscribed = expectation(description: "subscribed")
            let subscription = Observable<Int>.create { _ in
                subscribed.fulfill()
                return Disposables.create {
                    XCTAssertTrue(OperationQueue.current === queue)
                    disposedOnQueue.fulfill()
                }
            }
            .subscribe(on: scheduler)
            .subscribe()
            wait(for: [subscribed], timeout: timeout)
            subscription.dispose()
            wait(for: [disposedOnQueue], timeout: timeout)
        }

        func testRecursiveSchedulingRunsEveryStep() throws {
            // Operators that take an immediate scheduler schedule themselves again step by step.
            let scheduler = OperationQueueScheduler(operationQueue: serialQueue())
            let values = try Observable.range(start: 1, count: 100, scheduler: scheduler)
                .toBlocking(timeout: timeout).toArray()
            XCTAssertEqual(values, Array(1...100))
        }

        func testSchedulingFromManyThreads() {
            let queue = OperationQueue()
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let runs = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: 200) { _ in
                _ = scheduler.schedule(()) { _ in
                    runs.add(1, ordering: .relaxed)
                    return Disposables.create()
                }
            }
            queue.waitUntilAllOperationsAreFinished()
            XCTAssertEqual(runs.load(ordering: .relaxed), 200)
        }
    }

    /// Calls `onRelease` when the last reference to it goes away.
    private final class ReleaseSignal: Sendable {
        private let onRelease: @Sendable () -> Void

        init(_ onRelease: @escaping @Sendable () -> Void) {
            self.onRelease = onRelease
        }

        deinit {
            onRelease()
        }
    }
#endif
