import Foundation
import RxSwift
import RxTest
import XCTest

final class HistoricalSchedulerTests: RxLeakCheckingTestCase {
    private func date(_ seconds: TimeInterval) -> Date {
        Date(timeIntervalSince1970: seconds)
    }

    func testDefaultInitialClockIsTheEpoch() {
        let scheduler = HistoricalScheduler()
        XCTAssertEqual(scheduler.clock, date(0))
        XCTAssertEqual(scheduler.now, date(0))
    }

    func testRunsWorkAtHistoricalDatesInOrder() {
        let scheduler = HistoricalScheduler(initialClock: date(1_000))
        var log: [String] = []
        _ = scheduler.scheduleAbsoluteVirtual("b", time: date(1_020)) { label in
            log.append("\(label)@\(scheduler.now.timeIntervalSince1970)")
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative("a", dueTime: .seconds(10)) { label in
            log.append("\(label)@\(scheduler.now.timeIntervalSince1970)")
            return Disposables.create()
        }
        _ = scheduler.scheduleRelativeVirtual("c", dueTime: 30.5) { label in
            log.append("\(label)@\(scheduler.now.timeIntervalSince1970)")
            return Disposables.create()
        }
        _ = scheduler.schedule("now") { label in
            log.append("\(label)@\(scheduler.now.timeIntervalSince1970)")
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(log, ["now@1000.0", "a@1010.0", "b@1020.0", "c@1030.5"])
        XCTAssertEqual(scheduler.clock, date(1_030.5))
    }

    func testAdvanceToAndSleep() {
        let scheduler = HistoricalScheduler(initialClock: date(0))
        var ran: [TimeInterval] = []
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(1_500)) { _ in
            ran.append(scheduler.now.timeIntervalSince1970)
            return Disposables.create()
        }
        scheduler.advanceTo(date(1))
        XCTAssertEqual(ran, [])
        XCTAssertEqual(scheduler.clock, date(1))
        scheduler.sleep(2)
        XCTAssertEqual(scheduler.clock, date(3))
        XCTAssertEqual(ran, [])
        scheduler.advanceTo(date(3))
        XCTAssertEqual(ran, [3])
    }

    func testDrivesTimeBasedOperators() {
        let scheduler = HistoricalScheduler(initialClock: date(100))
        var values: [Int] = []
        var times: [TimeInterval] = []
        let subscription = Observable<Int>.interval(.seconds(60), scheduler: scheduler).subscribe(onNext: {
            values.append($0)
            times.append(scheduler.now.timeIntervalSince1970)
        })
        scheduler.advanceTo(date(100 + 3 * 60))
        subscription.dispose()
        XCTAssertEqual(values, [0, 1, 2])
        XCTAssertEqual(times, [160, 220, 280])
    }

    func testConverter() {
        let converter = HistoricalSchedulerTimeConverter()
        XCTAssertEqual(converter.convertToVirtualTime(date(5)), date(5))
        XCTAssertEqual(converter.convertFromVirtualTime(date(6)), date(6))
        XCTAssertEqual(converter.convertToVirtualTimeInterval(2.5), 2.5)
        XCTAssertEqual(converter.convertFromVirtualTimeInterval(3.5), 3.5)
        XCTAssertEqual(converter.offsetVirtualTime(date(10), offset: -4), date(6))
        XCTAssertEqual(converter.compareVirtualTime(date(1), date(2)), .lessThan)
        XCTAssertEqual(converter.compareVirtualTime(date(2), date(2)), .equal)
        XCTAssertEqual(converter.compareVirtualTime(date(3), date(2)), .greaterThan)
    }
}
