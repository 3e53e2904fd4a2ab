import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

final class SerialDispatchQueueSchedulerTests: RxLeakCheckingTestCase {
    private let timeout: TimeInterval = 30

    /// Schedules `count` actions and checks they ran on `marker`'s queue, in order, one at a time.
    private func assertSerial(_ scheduler: SerialDispatchQueueScheduler, marker: QueueMarker?, count: Int = 200) {
        let order = SchedulerTestLog<Int>()
        let overlap = OverlapDetector()
        let offQueue = Atomic<Int>(0)
        let done = expectation(description: "all actions ran")
        for index in 0..<count {
            _ = scheduler.schedule(index) { index in
                overlap.enter()
                if let marker, !marker.isCurrent { offQueue.wrappingAdd(1, ordering: .relaxed) }
                if index % 50 == 0 { usleep(1_000) }
                order.append(index)
                overlap.leave()
                if index == count - 1 { done.fulfill() }
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: timeout)
        XCTAssertEqual(order.values, Array(0..<count))
        XCTAssertEqual(overlap.maximumInside, 1)
        XCTAssertEqual(offQueue.load(ordering: .relaxed), 0)
    }

    /// Waits until everything queued on `scheduler` before this call has finished.
    private func drain(_ scheduler: SerialDispatchQueueScheduler) {
        let drained = expectation(description: "queue drained")
        _ = scheduler.schedule(()) { _ in
            drained.fulfill()
            return Disposables.create()
        }
        wait(for: [drained], timeout: timeout)
    }

    func testInternalSerialQueueNameInitRunsOnItsConfiguredQueue() {
        let marker = QueueMarker()
        let configured = Atomic<Int>(0)
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.serial") { queue in
            configured.wrappingAdd(1, ordering: .relaxed)
            XCTAssertEqual(queue.label, "rx.test.serial")
            marker.mark(queue)
        }
        XCTAssertEqual(configured.load(ordering: .relaxed), 1)
        assertSerial(scheduler, marker: marker)
    }

    func testQueueInitSerializesWorkOnAConcurrentQueue() {
        let marker = QueueMarker()
        let concurrent = DispatchQueue(label: "rx.test.concurrent", attributes: .concurrent)
        marker.mark(concurrent)
        let scheduler = SerialDispatchQueueScheduler(queue: concurrent, internalSerialQueueName: "rx.test.inner")
        // The internal serial queue targets the given queue, so its work runs there.
        assertSerial(scheduler, marker: marker)
    }

    func testQosInitSerializesWorkOnTheGlobalQueue() {
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        assertSerial(scheduler, marker: nil)
        let named = SerialDispatchQueueScheduler(qos: .utility, internalSerialQueueName: "rx.test.qos")
        assertSerial(named, marker: nil)
    }

    func testScheduleNeverRunsOnTheCallingThread() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.async")
        let gate = DispatchSemaphore(value: 0)
        let done = expectation(description: "ran")
        _ = scheduler.schedule(()) { _ in
            // Only possible if the action runs elsewhere: the caller signals after `schedule` returned.
            XCTAssertEqual(gate.wait(timeout: .now() + 30), .success)
            done.fulfill()
            return Disposables.create()
        }
        gate.signal()
        wait(for: [done], timeout: timeout)
    }

    func testDisposingBeforeTheRunCancelsIt() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.cancel")
        let gate = DispatchSemaphore(value: 0)
        let ran = SchedulerTestLog<String>()
        let done = expectation(description: "queue drained")
        _ = scheduler.schedule(()) { _ in
            _ = gate.wait(timeout: .now() + 30)
            return Disposables.create()
        }
        let cancelled = scheduler.schedule(()) { _ in
            ran.append("cancelled")
            return Disposables.create()
        }
        _ = scheduler.schedule(()) { _ in
            ran.append("kept")
            done.fulfill()
            return Disposables.create()
        }
        cancelled.dispose()
        gate.signal()
        wait(for: [done], timeout: timeout)
        XCTAssertEqual(ran.values, ["kept"])
    }

    func testDisposingAfterTheRunDisposesWhatTheActionReturned() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.result")
        let returned = BooleanDisposable()
        let done = expectation(description: "ran")
        let scheduled = scheduler.schedule(()) { _ in
            done.fulfill()
            return returned
        }
        wait(for: [done], timeout: timeout)
        drain(scheduler)
        XCTAssertFalse(returned.isDisposed)
        scheduled.dispose()
        XCTAssertTrue(returned.isDisposed)
    }

    func testScheduleRelativeFiresOnTheQueueAfterTheDueTime() {
        let marker = QueueMarker()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.relative") { marker.mark($0) }
        let fired = expectation(description: "fired")
        _ = scheduler.scheduleRelative(7, dueTime: .milliseconds(20)) { state in
            XCTAssertEqual(state, 7)
            XCTAssertTrue(marker.isCurrent)
            fired.fulfill()
            return Disposables.create()
        }
        wait(for: [fired], timeout: timeout)
    }

    func testScheduleRelativeCanBeCancelled() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.relative.cancel")
        let ran = Atomic<Bool>(false)
        let cancelled = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            ran.store(true, ordering: .relaxed)
            return Disposables.create()
        }
        cancelled.dispose()
        let later = expectation(description: "a later timer fired")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(100)) { _ in
            later.fulfill()
            return Disposables.create()
        }
        wait(for: [later], timeout: timeout)
        XCTAssertFalse(ran.load(ordering: .relaxed))
    }

    func testScheduleRelativeDisposingAfterTheRunDisposesWhatTheActionReturned() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.relative.result")
        let returned = BooleanDisposable()
        let fired = expectation(description: "fired")
        let scheduled = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            fired.fulfill()
            return returned
        }
        wait(for: [fired], timeout: timeout)
        drain(scheduler)
        XCTAssertFalse(returned.isDisposed)
        scheduled.dispose()
        XCTAssertTrue(returned.isDisposed)
    }

    func testSchedulePeriodicTicksOnTheQueueWithTheStateAndStopsWhenDisposed() {
        let marker = QueueMarker()
        let queue = DispatchQueue(label: "rx.test.periodic")
        marker.mark(queue)
        let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "rx.test.periodic.inner")
        let states = SchedulerTestLog<Int>()
        let offQueue = Atomic<Int>(0)
        let threeTicks = expectation(description: "three ticks")
        let disposable = scheduler.schedulePeriodic(0, startAfter: .milliseconds(5), period: .milliseconds(5)) {
            state in
            if !marker.isCurrent { offQueue.wrappingAdd(1, ordering: .relaxed) }
            states.append(state)
            if state == 2 { threeTicks.fulfill() }
            return state + 1
        }
        wait(for: [threeTicks], timeout: timeout)
        disposable.dispose()
        // A tick running while we disposed has finished once the queue ran this barrier.
        queue.sync {}
        let ticksAtDisposal = states.count
        usleep(50_000)
        queue.sync {}
        XCTAssertEqual(states.count, ticksAtDisposal)
        XCTAssertEqual(states.values, Array(0..<ticksAtDisposal))
        XCTAssertEqual(offQueue.load(ordering: .relaxed), 0)
    }

    func testSchedulePeriodicDisposedFromInsideTheAction() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.periodic.inside")
        let ticks = Atomic<Int>(0)
        let box = SchedulerTestLog<Disposable>()
        let third = expectation(description: "third tick")
        let ready = DispatchSemaphore(value: 0)
        let disposable = scheduler.schedulePeriodic((), startAfter: .milliseconds(1), period: .milliseconds(1)) { _ in
            let tick = ticks.wrappingAdd(1, ordering: .relaxed).newValue
            if tick == 1 { XCTAssertEqual(ready.wait(timeout: .now() + 30), .success) }
            if tick == 3 {
                box.values.first?.dispose()
                third.fulfill()
            }
        }
        box.append(disposable)
        ready.signal()
        wait(for: [third], timeout: timeout)
        let drained = expectation(description: "later work ran")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(50)) { _ in
            drained.fulfill()
            return Disposables.create()
        }
        wait(for: [drained], timeout: timeout)
        XCTAssertEqual(ticks.load(ordering: .relaxed), 3)
    }

    func testNowIsTheWallClock() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.now")
        XCTAssertLessThan(abs(scheduler.now.timeIntervalSinceNow), 5)
    }

    func testSchedulingFromManyThreadsKeepsEachThreadsOrder() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rx.test.stress")
        let perThread = 500
        let threads = 4
        let log = SchedulerTestLog<Int>()
        let overlap = OverlapDetector()
        let group = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                group.enter()
                _ = scheduler.schedule(thread * perThread + index) { value in
                    overlap.enter()
                    log.append(value)
                    overlap.leave()
                    group.leave()
                    return Disposables.create()
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + timeout), .success)
        XCTAssertEqual(overlap.maximumInside, 1)
        let values = log.values
        XCTAssertEqual(values.count, threads * perThread)
        for thread in 0..<threads {
            let own = values.filter { $0 / perThread == thread }
            XCTAssertEqual(own, Array(thread * perThread..<(thread + 1) * perThread))
        }
    }
}
