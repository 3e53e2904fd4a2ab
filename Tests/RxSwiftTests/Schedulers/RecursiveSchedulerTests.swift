import Dispatch
import Foundation
import RxTest
import Synchronization
import XCTest

@testable import RxSwift

final class RecursiveSchedulerTests: RxLeakCheckingTestCase {
    // MARK: scheduleRecursive (immediate)

    func testImmediateRecursionOnTestSchedulerRunsOneTickApart() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [TestTime] = []
        var states: [Int] = []
        scheduler.scheduleAt(100) {
            _ = scheduler.scheduleRecursive(0) { state, recurse in
                times.append(scheduler.clock)
                states.append(state)
                if state < 4 { recurse(state + 1) }
            }
        }
        scheduler.start()
        // `schedule` on a TestScheduler simulates one tick of processing delay.
        XCTAssertEqual(times, [101, 102, 103, 104, 105])
        XCTAssertEqual(states, [0, 1, 2, 3, 4])
    }

    func testImmediateRecursionWithoutProcessingDelayStaysAtTheSameTime() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        var times: [TestTime] = []
        scheduler.scheduleAt(100) {
            _ = scheduler.scheduleRecursive(0) { state, recurse in
                times.append(scheduler.clock)
                if state < 3 { recurse(state + 1) }
            }
        }
        scheduler.start()
        XCTAssertEqual(times, [100, 100, 100, 100])
    }

    func testDisposingStopsFurtherRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [TestTime] = []
        var disposable: Disposable?
        scheduler.scheduleAt(100) {
            disposable = scheduler.scheduleRecursive(0) { state, recurse in
                times.append(scheduler.clock)
                recurse(state + 1)
            }
        }
        // Scheduled before the recursion, so at 103 it runs before the step due then.
        scheduler.scheduleAt(103) { disposable?.dispose() }
        scheduler.start()
        XCTAssertEqual(times, [101, 102])
        XCTAssertEqual(scheduler.clock, 103)
    }

    func testRecurseAfterDisposalFromInsideTheActionDoesNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        var runs = 0
        var disposable: Disposable?
        scheduler.scheduleAt(100) {
            disposable = scheduler.scheduleRecursive(0) { state, recurse in
                runs += 1
                disposable?.dispose()
                recurse(state + 1)
            }
        }
        scheduler.start()
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(scheduler.clock, 101)
    }

    func testDisposingBeforeTheFirstRunPreventsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        var runs = 0
        scheduler.scheduleAt(100) {
            let disposable = scheduler.scheduleRecursive(()) { _, _ in runs += 1 }
            disposable.dispose()
        }
        scheduler.start()
        XCTAssertEqual(runs, 0)
    }

    func testPendingBookkeepingHoldsOnlyThePendingRun() throws {
        let scheduler = TestScheduler(initialClock: 0)
        var pendingDuringRuns: Set<Int> = []
        var recursive: RecursiveScheduler<Int, TestScheduler>?
        scheduler.scheduleAt(100) {
            let disposable = scheduler.scheduleRecursive(0) { state, recurse in
                pendingDuringRuns.insert(recursive?.pendingCount ?? -1)
                if state < 999 { recurse(state + 1) }
                pendingDuringRuns.insert(recursive?.pendingCount ?? -1)
            }
            recursive = disposable as? RecursiveScheduler<Int, TestScheduler>
        }
        scheduler.start()
        let scheduled = try XCTUnwrap(recursive)
        // While a run executes its own entry is gone; after it recursed exactly one is pending.
        XCTAssertEqual(pendingDuringRuns, [0, 1])
        XCTAssertEqual(scheduled.pendingCount, 0)
        XCTAssertEqual(scheduler.clock, 1100)
    }

    func testPendingBookkeepingOnTheTrampolineStaysEmpty() throws {
        var maximum = 0
        var recursive: RecursiveScheduler<Int, CurrentThreadScheduler>?
        var steps = 0
        let disposable = CurrentThreadScheduler.instance.scheduleRecursive(0) { state, recurse in
            steps += 1
            maximum = max(maximum, recursive?.pendingCount ?? 0)
            if state < 10_000 { recurse(state + 1) }
        }
        recursive = disposable as? RecursiveScheduler<Int, CurrentThreadScheduler>
        XCTAssertNotNil(recursive)
        XCTAssertEqual(steps, 10_001)
        XCTAssertEqual(try XCTUnwrap(recursive).pendingCount, 0)
        XCTAssertLessThanOrEqual(maximum, 1)
    }

    func testPendingBookkeepingIsEmptiedByDisposal() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let disposable = scheduler.scheduleRecursive(0) { state, recurse in recurse(state + 1) }
        let recursive = try XCTUnwrap(disposable as? RecursiveScheduler<Int, TestScheduler>)
        XCTAssertEqual(recursive.pendingCount, 1)
        disposable.dispose()
        XCTAssertEqual(recursive.pendingCount, 0)
        scheduler.start()
        XCTAssertEqual(scheduler.clock, 0)
    }

    // MARK: scheduleRecursive (timed, internal)

    func testTimedRecursionRunsEveryDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [TestTime] = []
        var disposable: Disposable?
        scheduler.scheduleAt(200) {
            disposable = scheduler.scheduleRecursive(0, dueTime: .seconds(10)) { state, recurse in
                times.append(scheduler.clock)
                if state < 3 { recurse(state + 1) }
            }
        }
        scheduler.start()
        XCTAssertEqual(times, [210, 220, 230, 240])
        disposable?.dispose()
    }

    func testTimedRecursionWithZeroDueTimeIsDelayedOneTick() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [TestTime] = []
        scheduler.scheduleAt(200) {
            _ = scheduler.scheduleRecursive(0, dueTime: .seconds(0)) { state, recurse in
                times.append(scheduler.clock)
                if state < 2 { recurse(state + 1) }
            }
        }
        scheduler.start()
        XCTAssertEqual(times, [201, 202, 203])
    }

    func testTimedRecursionDisposedBetweenRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [TestTime] = []
        var disposable: Disposable?
        scheduler.scheduleAt(200) {
            disposable = scheduler.scheduleRecursive(0, dueTime: .seconds(10)) { state, recurse in
                times.append(scheduler.clock)
                recurse(state + 1)
            }
        }
        scheduler.scheduleAt(235) { disposable?.dispose() }
        scheduler.start()
        XCTAssertEqual(times, [210, 220, 230])
        XCTAssertEqual(scheduler.clock, 235)
    }

    // MARK: schedulePeriodic (default implementation)

    func testPeriodicStartsAfterStartAfterThenEveryPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        var ticks: [Recorded<Int>] = []
        var disposable: Disposable?
        scheduler.scheduleAt(200) {
            disposable = scheduler.schedulePeriodic(0, startAfter: .seconds(5), period: .seconds(10)) { state in
                ticks.append(Recorded(time: scheduler.clock, value: state))
                return state + 1
            }
        }
        scheduler.scheduleAt(240) { disposable?.dispose() }
        scheduler.start()
        XCTAssertEqual(ticks.map(\.time), [205, 215, 225, 235])
        XCTAssertEqual(ticks.map(\.value), [0, 1, 2, 3])
        XCTAssertEqual(scheduler.clock, 240)
    }

    func testPeriodicSchedulesTheNextTickBeforeRunningTheAction() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        var disposable: Disposable?
        scheduler.scheduleAt(0) {
            disposable = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(10)) { state in
                log.append("tick \(scheduler.clock)")
                if state == 0 {
                    // Due at the same time as the next tick, but scheduled after it.
                    _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
                        log.append("other \(scheduler.clock)")
                        return Disposables.create()
                    }
                }
                return state + 1
            }
        }
        scheduler.scheduleAt(25) { disposable?.dispose() }
        scheduler.start()
        XCTAssertEqual(log, ["tick 10", "tick 20", "other 20"])
    }

    func testPeriodicDisposedFromInsideTheAction() {
        let scheduler = TestScheduler(initialClock: 0)
        var ticks = 0
        var disposable: Disposable?
        scheduler.scheduleAt(0) {
            disposable = scheduler.schedulePeriodic((), startAfter: .seconds(1), period: .seconds(1)) { _ in
                ticks += 1
                if ticks == 3 { disposable?.dispose() }
            }
        }
        scheduler.start()
        XCTAssertEqual(ticks, 3)
        XCTAssertEqual(scheduler.clock, 3)
    }

    func testPeriodicOnHistoricalSchedulerUsesRealIntervals() {
        let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 1_000))
        var seconds: [Double] = []
        let disposable = scheduler.schedulePeriodic(
            0, startAfter: .milliseconds(500), period: .milliseconds(250)
        ) { state in
            seconds.append(scheduler.now.timeIntervalSince1970)
            return state + 1
        }
        scheduler.advanceTo(Date(timeIntervalSince1970: 1_001.25))
        disposable.dispose()
        XCTAssertEqual(seconds, [1_000.5, 1_000.75, 1_001, 1_001.25])
    }

    /// A timed scheduler with no periodic timer of its own, over a concurrent queue, so that the
    /// default `schedulePeriodic` must keep slow runs from overlapping.
    private struct ConcurrentTimedScheduler: SchedulerType {
        let base = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "periodic", attributes: .concurrent))
        var now: RxTime { base.now }

        func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
            base.schedule(state, action: action)
        }

        func scheduleRelative<StateType>(
            _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
        ) -> Disposable {
            base.scheduleRelative(state, dueTime: dueTime, action: action)
        }
    }

    func testPeriodicRunsNeverOverlapOnAConcurrentScheduler() {
        let scheduler = ConcurrentTimedScheduler()
        let overlap = OverlapDetector()
        let states = SchedulerTestLog<Int>()
        let enoughTicks = expectation(description: "ten ticks")
        let disposable = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) {
            state in
            overlap.enter()
            // Longer than the period, so ticks pile up while a run is going.
            usleep(3_000)
            states.append(state)
            overlap.leave()
            if state == 9 { enoughTicks.fulfill() }
            return state + 1
        }
        wait(for: [enoughTicks], timeout: 30)
        disposable.dispose()
        XCTAssertEqual(overlap.maximumInside, 1)
        XCTAssertEqual(Array(states.values.prefix(10)), Array(0..<10))
    }

    func testRecursionOnAConcurrentSchedulerKeepsNoBookkeeping() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let done = expectation(description: "all steps")
        let steps = Atomic<Int>(0)
        let disposable = scheduler.scheduleRecursive(0) { state, recurse in
            steps.wrappingAdd(1, ordering: .relaxed)
            if state < 2_000 {
                recurse(state + 1)
            } else {
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(steps.load(ordering: .relaxed), 2_001)
        let recursive = try XCTUnwrap(disposable as? RecursiveScheduler<Int, ConcurrentDispatchQueueScheduler>)
        // The thread that scheduled the last step may still be finishing its bookkeeping.
        let deadline = Date().addingTimeInterval(30)
        while recursive.pendingCount != 0 && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(recursive.pendingCount, 0)
        disposable.dispose()
    }
}
