import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

final class ConcurrentDispatchQueueSchedulerTests: RxLeakCheckingTestCase {
    private let timeout: TimeInterval = 30

    func testQueueInitRunsOnTheQueue() {
        let marker = QueueMarker()
        let queue = DispatchQueue(label: "rx.test.concurrent", attributes: .concurrent)
        marker.mark(queue)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let done = expectation(description: "ran")
        _ = scheduler.schedule(5) { state in
            XCTAssertEqual(state, 5)
            XCTAssertTrue(marker.isCurrent)
            done.fulfill()
            return Disposables.create()
        }
        wait(for: [done], timeout: timeout)
    }

    func testActionsRunConcurrently() {
        let scheduler = ConcurrentDispatchQueueScheduler(
            queue: DispatchQueue(label: "rx.test.concurrent.pair", attributes: .concurrent))
        let firstStarted = DispatchSemaphore(value: 0)
        let secondStarted = DispatchSemaphore(value: 0)
        let bothSawEachOther = expectation(description: "both ran at once")
        bothSawEachOther.expectedFulfillmentCount = 2
        // Each action waits until the other started: only possible if they run at the same time.
        _ = scheduler.schedule(()) { _ in
            firstStarted.signal()
            if secondStarted.wait(timeout: .now() + 30) == .success { bothSawEachOther.fulfill() }
            return Disposables.create()
        }
        _ = scheduler.schedule(()) { _ in
            secondStarted.signal()
            if firstStarted.wait(timeout: .now() + 30) == .success { bothSawEachOther.fulfill() }
            return Disposables.create()
        }
        wait(for: [bothSawEachOther], timeout: 60)
    }

    func testQosInitRunsOffTheCallingThread() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let gate = DispatchSemaphore(value: 0)
        let done = expectation(description: "ran")
        _ = scheduler.schedule(()) { _ in
            XCTAssertEqual(gate.wait(timeout: .now() + 30), .success)
            done.fulfill()
            return Disposables.create()
        }
        gate.signal()
        wait(for: [done], timeout: timeout)
    }

    func testDisposingBeforeTheRunCancelsIt() {
        let queue = DispatchQueue(label: "rx.test.concurrent.cancel", attributes: .concurrent)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let ran = Atomic<Bool>(false)
        queue.suspend()
        let scheduled = scheduler.schedule(()) { _ in
            ran.store(true, ordering: .relaxed)
            return Disposables.create()
        }
        scheduled.dispose()
        queue.resume()
        queue.sync(flags: .barrier) {}
        XCTAssertFalse(ran.load(ordering: .relaxed))
    }

    func testScheduleRelativeFiresOnTheQueue() {
        let marker = QueueMarker()
        let queue = DispatchQueue(label: "rx.test.concurrent.relative", attributes: .concurrent)
        marker.mark(queue)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue, leeway: .milliseconds(1))
        let fired = expectation(description: "fired")
        _ = scheduler.scheduleRelative("x", dueTime: .milliseconds(10)) { state in
            XCTAssertEqual(state, "x")
            XCTAssertTrue(marker.isCurrent)
            fired.fulfill()
            return Disposables.create()
        }
        wait(for: [fired], timeout: timeout)
    }

    func testScheduleRelativeCanBeCancelled() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let ran = Atomic<Bool>(false)
        let cancelled = scheduler.scheduleRelative((), dueTime: .milliseconds(10)) { _ in
            ran.store(true, ordering: .relaxed)
            return Disposables.create()
        }
        cancelled.dispose()
        let later = expectation(description: "later")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(100)) { _ in
            later.fulfill()
            return Disposables.create()
        }
        wait(for: [later], timeout: timeout)
        XCTAssertFalse(ran.load(ordering: .relaxed))
    }

    func testSchedulePeriodicTicksWithTheStateNeverOverlapsAndStopsWhenDisposed() {
        let queue = DispatchQueue(label: "rx.test.concurrent.periodic", attributes: .concurrent)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let states = SchedulerTestLog<Int>()
        let overlap = OverlapDetector()
        let fiveTicks = expectation(description: "five ticks")
        let disposable = scheduler.schedulePeriodic(0, startAfter: .milliseconds(2), period: .milliseconds(2)) {
            state in
            overlap.enter()
            states.append(state)
            overlap.leave()
            if state == 4 { fiveTicks.fulfill() }
            return state + 1
        }
        wait(for: [fiveTicks], timeout: timeout)
        disposable.dispose()
        // The barrier waits for a tick that was running while we disposed.
        queue.sync(flags: .barrier) {}
        let ticksAtDisposal = states.count
        usleep(50_000)
        queue.sync(flags: .barrier) {}
        XCTAssertEqual(states.count, ticksAtDisposal)
        XCTAssertEqual(states.values, Array(0..<ticksAtDisposal))
        XCTAssertEqual(overlap.maximumInside, 1)
    }
}
