import Dispatch
import RxSwift
import RxTest
import Synchronization
import XCTest

final class CurrentThreadSchedulerTests: RxLeakCheckingTestCase {
    private let scheduler = CurrentThreadScheduler.instance

    func testIsScheduleRequiredIsTrueOutsideAndFalseInsideTheTrampoline() {
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        var inside: [Bool] = []
        _ = scheduler.schedule(()) { _ in
            inside.append(CurrentThreadScheduler.isScheduleRequired)
            _ = self.scheduler.schedule(()) { _ in
                inside.append(CurrentThreadScheduler.isScheduleRequired)
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(inside, [false, false])
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    func testFirstScheduleRunsAtOnceAndReturnsTheActionsDisposable() {
        var ran = false
        let returned = BooleanDisposable()
        let disposable = scheduler.schedule(()) { _ in
            ran = true
            return returned
        }
        XCTAssertTrue(ran)
        XCTAssertFalse(returned.isDisposed)
        disposable.dispose()
        XCTAssertTrue(returned.isDisposed)
    }

    func testNestedSchedulesRunAfterTheCurrentActionInFIFOOrder() {
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            log.append("a begin")
            _ = self.scheduler.schedule(()) { _ in
                log.append("b begin")
                _ = self.scheduler.schedule(()) { _ in
                    log.append("d")
                    return Disposables.create()
                }
                log.append("b end")
                return Disposables.create()
            }
            _ = self.scheduler.schedule(()) { _ in
                log.append("c")
                return Disposables.create()
            }
            log.append("a end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["a begin", "a end", "b begin", "b end", "c", "d"])
    }

    func testStatePassedToTheAction() {
        var received: [Int] = []
        _ = scheduler.schedule(7) { state in
            received.append(state)
            _ = self.scheduler.schedule(state + 1) { state in
                received.append(state)
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(received, [7, 8])
    }

    func testDisposingAQueuedItemPreventsItsRun() {
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            let second = self.scheduler.schedule(()) { _ in
                log.append("second")
                return Disposables.create()
            }
            _ = self.scheduler.schedule(()) { _ in
                log.append("third")
                return Disposables.create()
            }
            second.dispose()
            log.append("first")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["first", "third"])
    }

    func testAQueuedItemDisposedByAnEarlierQueuedItemDoesNotRun() {
        var log: [String] = []
        var later: Disposable?
        _ = scheduler.schedule(()) { _ in
            _ = self.scheduler.schedule(()) { _ in
                log.append("earlier")
                later?.dispose()
                return Disposables.create()
            }
            later = self.scheduler.schedule(()) { _ in
                log.append("later")
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(log, ["earlier"])
    }

    func testDisposingAQueuedItemAfterItRanDisposesWhatItReturned() {
        let returned = BooleanDisposable()
        var queued: Disposable?
        _ = scheduler.schedule(()) { _ in
            queued = self.scheduler.schedule(()) { _ in returned }
            return Disposables.create()
        }
        XCTAssertFalse(returned.isDisposed)
        queued?.dispose()
        XCTAssertTrue(returned.isDisposed)
    }

    func testTrampolineCanBeReusedAfterItDrained() {
        var log: [Int] = []
        for round in 0..<3 {
            _ = scheduler.schedule(()) { _ in
                _ = self.scheduler.schedule(()) { _ in
                    log.append(round * 10 + 1)
                    return Disposables.create()
                }
                log.append(round * 10)
                return Disposables.create()
            }
            XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        }
        XCTAssertEqual(log, [0, 1, 10, 11, 20, 21])
    }

    func testScheduleRecursiveRunsStepsInOrderWithoutGrowingTheStack() {
        let steps = 100_000
        var count = 0
        var lowest = UInt.max
        var highest = UInt.min
        let disposable = scheduler.scheduleRecursive(0) { step, recurse in
            var marker = step
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            lowest = min(lowest, address)
            highest = max(highest, address)
            XCTAssertEqual(step, count)
            count += 1
            if step + 1 < steps { recurse(step + 1) }
        }
        XCTAssertEqual(count, steps)
        // Each step starts from the same trampoline frame; a recursive implementation would use
        // hundreds of bytes per step (tens of megabytes here).
        XCTAssertLessThan(highest - lowest, 4096)
        disposable.dispose()
    }

    func testScheduleRecursiveInsideTheTrampolineIsQueuedBehindTheRunningWork() {
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            _ = self.scheduler.scheduleRecursive(0) { step, recurse in
                log.append("r\(step)")
                if step < 2 { recurse(step + 1) }
            }
            _ = self.scheduler.schedule(()) { _ in
                log.append("x")
                return Disposables.create()
            }
            log.append("outer")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer", "r0", "x", "r1", "r2"])
    }

    func testDisposingScheduleRecursiveFromInsideStopsIt() {
        var count = 0
        var disposable: Disposable?
        _ = scheduler.schedule(()) { _ in
            disposable = self.scheduler.scheduleRecursive(0) { step, recurse in
                count += 1
                if step == 4 { disposable?.dispose() }
                recurse(step + 1)
            }
            return Disposables.create()
        }
        XCTAssertEqual(count, 5)
    }

    func testObservableOfSourcesInterleaveInsideTheTrampoline() {
        var values: [Int] = []
        var subscriptions: [Disposable] = []
        _ = scheduler.schedule(()) { _ in
            subscriptions.append(Observable.of(1, 2, 3).subscribe(onNext: { values.append($0) }))
            subscriptions.append(Observable.of(4, 5, 6).subscribe(onNext: { values.append($0) }))
            return Disposables.create()
        }
        // Each source emits one element per trampoline step, so they take turns (as in RxSwift).
        XCTAssertEqual(values, [1, 4, 2, 5, 3, 6])
        subscriptions.forEach { $0.dispose() }
    }

    func testObservableOfSourcesSubscribedOutsideTheTrampolineRunOneAfterTheOther() {
        var values: [Int] = []
        let first = Observable.of(1, 2, 3).subscribe(onNext: { values.append($0) })
        let second = Observable.of(4, 5, 6).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2, 3, 4, 5, 6])
        first.dispose()
        second.dispose()
    }

    func testASecondThreadHasItsOwnTrampoline() {
        let otherThread = SchedulerTestLog<String>()
        let done = DispatchSemaphore(value: 0)
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            log.append("main begin")
            // Blocking inside the main thread's trampoline: the other thread must not queue behind it.
            DispatchQueue.global().async {
                otherThread.append("required \(CurrentThreadScheduler.isScheduleRequired)")
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    otherThread.append("ran")
                    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                        otherThread.append("nested")
                        return Disposables.create()
                    }
                    return Disposables.create()
                }
                otherThread.append("returned")
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            log.append("main end")
            return Disposables.create()
        }
        XCTAssertEqual(otherThread.values, ["required true", "ran", "nested", "returned"])
        XCTAssertEqual(log, ["main begin", "main end"])
    }

    func testManyThreadsUseTheirOwnTrampolinesConcurrently() {
        let threads = 8
        let steps = 2_000
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var seen: [Int] = []
            _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { step, recurse in
                seen.append(step)
                if step + 1 < steps { recurse(step + 1) }
            }
            if seen != Array(0..<steps) || !CurrentThreadScheduler.isScheduleRequired {
                failures.wrappingAdd(1, ordering: .relaxed)
            }
        }
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
    }
}
