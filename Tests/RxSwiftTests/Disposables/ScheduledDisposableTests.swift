import RxSwift
import RxTest
import XCTest

final class ScheduledDisposableTests: RxLeakCheckingTestCase {
    func testDisposesTargetOnItsScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: [Int] = []
        let target = Disposables.create { disposedAt.append(scheduler.clock) }
        let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: target)
        XCTAssertTrue((scheduled.scheduler as AnyObject) === scheduler)

        scheduler.scheduleAt(300) {
            scheduled.dispose()
            // Nothing happens until the scheduler runs the disposal.
            XCTAssertFalse(scheduled.isDisposed)
            XCTAssertEqual(disposedAt, [])
        }
        scheduler.scheduleAt(305) { scheduled.dispose() }
        scheduler.start()

        // Scheduled "now" at 300 runs one tick later on the TestScheduler.
        XCTAssertEqual(disposedAt, [301])
        XCTAssertTrue(scheduled.isDisposed)
        XCTAssertTrue(target.isDisposed)
    }

    func testRepeatedDisposeSchedulesOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let target = CountingDisposable()
        let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: target)
        scheduler.scheduleAt(100) {
            scheduled.dispose()
            scheduled.dispose()
        }
        scheduler.scheduleAt(200) { scheduled.dispose() }
        scheduler.start()
        XCTAssertEqual(target.disposeCount, 1)
    }

    func testWithImmediateSchedulerDisposesAtOnce() {
        let target = CountingDisposable()
        let scheduled = ScheduledDisposable(scheduler: CurrentThreadScheduler.instance, disposable: target)
        scheduled.dispose()
        XCTAssertEqual(target.disposeCount, 1)
        XCTAssertTrue(scheduled.isDisposed)
    }
}
