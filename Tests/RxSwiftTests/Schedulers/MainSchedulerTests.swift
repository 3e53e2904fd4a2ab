import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Runs on the main thread: XCTest calls test methods there (on Linux too), and its waits run the
/// main run loop, which drains the main dispatch queue.
final class MainSchedulerTests: RxLeakCheckingTestCase {
    private let timeout: TimeInterval = 30

    func testTestsRunOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread)
        MainScheduler.ensureExecutingOnScheduler()
        MainScheduler.ensureRunningOnMainThread()
    }

    func testInstanceRunsAtOnceOnTheMainThreadWhenNothingIsQueued() {
        var ran = false
        let returned = BooleanDisposable()
        let disposable = MainScheduler.instance.schedule(()) { _ in
            ran = true
            return returned
        }
        XCTAssertTrue(ran)
        disposable.dispose()
        XCTAssertTrue(returned.isDisposed)
    }

    func testInstanceQueuesWorkScheduledWhileItsOwnWorkRuns() {
        var log: [String] = []
        let nestedRan = expectation(description: "nested ran")
        _ = MainScheduler.instance.schedule(()) { _ in
            log.append("outer begin")
            _ = MainScheduler.instance.schedule(()) { _ in
                XCTAssertTrue(Thread.isMainThread)
                log.append("nested")
                nestedRan.fulfill()
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer begin", "outer end"])
        wait(for: [nestedRan], timeout: timeout)
        XCTAssertEqual(log, ["outer begin", "outer end", "nested"])
        // Once the queued work ran, scheduling on the main thread is immediate again.
        var immediate = false
        _ = MainScheduler.instance.schedule(()) { _ in
            immediate = true
            return Disposables.create()
        }
        XCTAssertTrue(immediate)
    }

    func testInstanceFromABackgroundThreadRunsOnTheMainThread() {
        let done = expectation(description: "ran on main")
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                XCTAssertTrue(Thread.isMainThread)
                done.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: timeout)
    }

    func testInstanceWorkQueuedFromABackgroundThreadCanBeCancelled() {
        let ran = Atomic<Bool>(false)
        let scheduled = DispatchSemaphore(value: 0)
        let box = SchedulerTestLog<Disposable>()
        DispatchQueue.global().async {
            box.append(
                MainScheduler.instance.schedule(()) { _ in
                    ran.store(true, ordering: .relaxed)
                    return Disposables.create()
                })
            scheduled.signal()
        }
        // The main thread is busy here, so the queued work cannot have run yet.
        XCTAssertEqual(scheduled.wait(timeout: .now() + timeout), .success)
        box.values.first?.dispose()
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: timeout)
        XCTAssertFalse(ran.load(ordering: .relaxed))
    }

    func testAsyncInstanceAlwaysQueues() {
        var log: [String] = []
        let ran = expectation(description: "ran")
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            XCTAssertTrue(Thread.isMainThread)
            log.append("action")
            ran.fulfill()
            return Disposables.create()
        }
        log.append("after schedule")
        wait(for: [ran], timeout: timeout)
        XCTAssertEqual(log, ["after schedule", "action"])
    }

    func testScheduleRelativeFiresOnTheMainThread() {
        let fired = expectation(description: "fired")
        _ = MainScheduler.instance.scheduleRelative(3, dueTime: .milliseconds(10)) { state in
            XCTAssertEqual(state, 3)
            XCTAssertTrue(Thread.isMainThread)
            fired.fulfill()
            return Disposables.create()
        }
        wait(for: [fired], timeout: timeout)
    }

    func testScheduleRelativeCanBeCancelled() {
        var ran = false
        let cancelled = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(10)) { _ in
            ran = true
            return Disposables.create()
        }
        cancelled.dispose()
        let later = expectation(description: "later")
        _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(100)) { _ in
            later.fulfill()
            return Disposables.create()
        }
        wait(for: [later], timeout: timeout)
        XCTAssertFalse(ran)
    }

    func testSchedulePeriodicTicksOnTheMainThreadAndStopsWhenDisposed() {
        var states: [Int] = []
        var disposable: Disposable?
        let third = expectation(description: "third tick")
        disposable = MainScheduler.instance.schedulePeriodic(0, startAfter: .milliseconds(2), period: .milliseconds(2))
        {
            state in
            XCTAssertTrue(Thread.isMainThread)
            states.append(state)
            if state == 2 {
                disposable?.dispose()
                third.fulfill()
            }
            return state + 1
        }
        wait(for: [third], timeout: timeout)
        let later = expectation(description: "later")
        _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(50)) { _ in
            later.fulfill()
            return Disposables.create()
        }
        wait(for: [later], timeout: timeout)
        XCTAssertEqual(states, [0, 1, 2])
    }

    func testConcurrentMainSchedulerRunsAtOnceOnTheMainThread() {
        var log: [String] = []
        _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
            log.append("outer")
            // Unlike MainScheduler.instance, nested work also runs at once.
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                log.append("nested")
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer", "nested", "outer end"])
    }

    func testConcurrentMainSchedulerFromABackgroundThreadRunsOnTheMainThread() {
        let done = expectation(description: "ran on main")
        DispatchQueue.global().async {
            _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
                XCTAssertTrue(Thread.isMainThread)
                done.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: timeout)
    }

    func testConcurrentMainSchedulerTimedWorkRunsOnTheMainThread() {
        let fired = expectation(description: "fired")
        let ticked = expectation(description: "ticked")
        var periodic: Disposable?
        _ = ConcurrentMainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(5)) { _ in
            XCTAssertTrue(Thread.isMainThread)
            fired.fulfill()
            return Disposables.create()
        }
        periodic = ConcurrentMainScheduler.instance.schedulePeriodic(
            0, startAfter: .milliseconds(5), period: .milliseconds(5)
        ) { state in
            XCTAssertTrue(Thread.isMainThread)
            if state == 1 {
                periodic?.dispose()
                ticked.fulfill()
            }
            return state + 1
        }
        wait(for: [fired, ticked], timeout: timeout)
        XCTAssertGreaterThan(ConcurrentMainScheduler.instance.now.timeIntervalSince1970, 0)
    }
}
