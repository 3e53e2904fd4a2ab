import Dispatch
import Foundation
import RxSwift
import RxTest
import Synchronization
import XCTest

/// Integer ticks of one second each, to test the base class without TestScheduler's adjustments.
private struct TickConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime)) }
    func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970.rounded()) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { Double(virtualTimeInterval) }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval.rounded()) }
    func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}

private final class TickScheduler: VirtualTimeScheduler<TickConverter>, @unchecked Sendable {
    init(_ clock: Int = 0) {
        super.init(initialClock: clock, converter: TickConverter())
    }

    /// Records (time, label) when the action runs.
    func at(_ time: Int, _ label: String, into log: SchedulerTestLog<String>) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            log.append("\(label)@\(self.clock)")
            return Disposables.create()
        }
    }
}

/// Shifts every relative schedule 100 ticks later, through the documented hook.
private final class LateScheduler: VirtualTimeScheduler<TickConverter>, @unchecked Sendable {
    init() {
        super.init(initialClock: 0, converter: TickConverter())
    }

    override func adjustScheduledTime(_ time: Int) -> Int {
        time + 100
    }
}

final class VirtualTimeSchedulerTests: RxLeakCheckingTestCase {
    func testStartRunsInTimeOrderAndMovesTheClockToEachItem() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        scheduler.at(30, "c", into: log)
        scheduler.at(10, "a", into: log)
        scheduler.at(20, "b", into: log)
        XCTAssertEqual(scheduler.clock, 0)
        scheduler.start()
        XCTAssertEqual(log.values, ["a@10", "b@20", "c@30"])
        XCTAssertEqual(scheduler.clock, 30)
    }

    func testEqualTimesRunInSchedulingOrder() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        for label in ["a", "b", "c", "d", "e"] { scheduler.at(10, label, into: log) }
        scheduler.at(5, "first", into: log)
        scheduler.start()
        XCTAssertEqual(log.values, ["first@5", "a@10", "b@10", "c@10", "d@10", "e@10"])
    }

    func testWorkScheduledForTheCurrentTimeRunsAfterWorkAlreadyDueThen() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10) { _ in
            log.append("a@\(scheduler.clock)")
            scheduler.at(10, "nested", into: log)
            scheduler.at(5, "past", into: log)
            return Disposables.create()
        }
        scheduler.at(10, "b", into: log)
        scheduler.start()
        // An item due in the past runs first, without moving the clock back; equal times keep
        // scheduling order.
        XCTAssertEqual(log.values, ["a@10", "past@10", "b@10", "nested@10"])
    }

    func testManyItemsRunInTimeThenSchedulingOrder() {
        let scheduler = TickScheduler()
        var expected: [(time: Int, id: Int)] = []
        var ran: [Int] = []
        var seed: UInt64 = 42
        for id in 0..<2_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let time = Int(seed >> 33) % 300
            expected.append((time, id))
            _ = scheduler.scheduleAbsoluteVirtual(id, time: time) { id in
                ran.append(id)
                return Disposables.create()
            }
        }
        scheduler.start()
        let order = expected.sorted { $0.time != $1.time ? $0.time < $1.time : $0.id < $1.id }.map(\.id)
        XCTAssertEqual(ran, order)
    }

    func testScheduleRelativeVirtualIsRelativeToTheClockAndNotAdjusted() {
        let scheduler = LateScheduler()
        var times: [Int] = []
        _ = scheduler.scheduleAbsoluteVirtual((), time: 50) { _ in
            _ = scheduler.scheduleRelativeVirtual((), dueTime: 7) { _ in
                times.append(scheduler.clock)
                return Disposables.create()
            }
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(times, [57])
    }

    func testScheduleRelativeAndScheduleGoThroughAdjustScheduledTime() {
        let scheduler = LateScheduler()
        var times: [String] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            times.append("relative@\(scheduler.clock)")
            return Disposables.create()
        }
        _ = scheduler.schedule(()) { _ in
            times.append("now@\(scheduler.clock)")
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(times, ["now@100", "relative@105"])
    }

    func testBaseClassScheduleRunsAtTheCurrentTime() {
        let scheduler = TickScheduler(40)
        var times: [Int] = []
        _ = scheduler.schedule(()) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(2_000)) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(times, [40, 42])
    }

    func testNowIsTheClockConvertedToADate() {
        let scheduler = TickScheduler(12)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 12))
        scheduler.advanceTo(30)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 30))
    }

    func testAdvanceToRunsItemsDueAtOrBeforeTheTimeThenSetsTheClock() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        scheduler.at(10, "a", into: log)
        scheduler.at(20, "b", into: log)
        scheduler.at(21, "c", into: log)
        scheduler.advanceTo(20)
        XCTAssertEqual(log.values, ["a@10", "b@20"])
        XCTAssertEqual(scheduler.clock, 20)
        scheduler.advanceTo(25)
        XCTAssertEqual(log.values, ["a@10", "b@20", "c@21"])
        XCTAssertEqual(scheduler.clock, 25)
        scheduler.advanceTo(40)
        XCTAssertEqual(scheduler.clock, 40)
    }

    func testAdvanceToAnEarlierTimeSetsTheClockBackAsInRxSwift() {
        let scheduler = TickScheduler(50)
        scheduler.advanceTo(30)
        XCTAssertEqual(scheduler.clock, 30)
    }

    func testStartAfterAdvanceToRunsTheRest() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        scheduler.at(10, "a", into: log)
        scheduler.at(30, "b", into: log)
        scheduler.advanceTo(15)
        scheduler.start()
        XCTAssertEqual(log.values, ["a@10", "b@30"])
    }

    func testStopEndsStartAfterTheCurrentActionAndStartResumes() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10) { _ in
            log.append("a@\(scheduler.clock)")
            scheduler.stop()
            log.append("after stop")
            return Disposables.create()
        }
        scheduler.at(10, "b", into: log)
        scheduler.at(20, "c", into: log)
        scheduler.start()
        XCTAssertEqual(log.values, ["a@10", "after stop"])
        XCTAssertEqual(scheduler.clock, 10)
        scheduler.start()
        XCTAssertEqual(log.values, ["a@10", "after stop", "b@10", "c@20"])
    }

    func testStopInsideAdvanceToStillSetsTheClock() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10) { _ in
            scheduler.stop()
            return Disposables.create()
        }
        scheduler.at(20, "b", into: log)
        scheduler.advanceTo(50)
        XCTAssertEqual(log.values, [])
        XCTAssertEqual(scheduler.clock, 50)
        scheduler.start()
        XCTAssertEqual(log.values, ["b@50"])
    }

    func testStartWhileRunningReturnsAtOnce() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10) { _ in
            scheduler.start()
            log.append("nested start returned@\(scheduler.clock)")
            return Disposables.create()
        }
        scheduler.at(20, "b", into: log)
        scheduler.start()
        XCTAssertEqual(log.values, ["nested start returned@10", "b@20"])
    }

    func testSleepMovesTheClockWithoutRunningAnything() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        scheduler.at(10, "a", into: log)
        scheduler.sleep(30)
        XCTAssertEqual(scheduler.clock, 30)
        XCTAssertEqual(log.values, [])
        scheduler.start()
        // The overdue item runs at the current clock, which never moves back.
        XCTAssertEqual(log.values, ["a@30"])
        XCTAssertEqual(scheduler.clock, 30)
    }

    func testSleepZeroIsAllowed() {
        let scheduler = TickScheduler(5)
        scheduler.sleep(0)
        XCTAssertEqual(scheduler.clock, 5)
    }

    func testDisposedItemsDoNotRunAndDoNotMoveTheClock() {
        let scheduler = TickScheduler()
        let log = SchedulerTestLog<String>()
        scheduler.at(10, "a", into: log)
        let late = scheduler.scheduleAbsoluteVirtual((), time: 100) { _ in
            log.append("late")
            return Disposables.create()
        }
        late.dispose()
        scheduler.start()
        XCTAssertEqual(log.values, ["a@10"])
        XCTAssertEqual(scheduler.clock, 10)
    }

    func testDisposingAfterTheRunDisposesWhatTheActionReturned() {
        let scheduler = TickScheduler()
        let returned = BooleanDisposable()
        let item = scheduler.scheduleAbsoluteVirtual((), time: 10) { _ in returned }
        scheduler.start()
        XCTAssertFalse(returned.isDisposed)
        item.dispose()
        XCTAssertTrue(returned.isDisposed)
    }

    func testDebugDescriptionListsTheClockAndLiveItems() {
        let scheduler = TickScheduler(3)
        _ = scheduler.scheduleAbsoluteVirtual((), time: 20) { _ in Disposables.create() }
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10) { _ in Disposables.create() }
        scheduler.scheduleAbsoluteVirtual((), time: 15) { _ in Disposables.create() }.dispose()
        XCTAssertEqual(scheduler.debugDescription, "VirtualTimeScheduler(clock: 3, pending: [10, 20])")
        scheduler.start()
    }

    func testScheduleRelativeNeverIsTheDistantFuture() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        let never = scheduler.scheduleRelative((), dueTime: .never) { _ in
            ran = true
            return Disposables.create()
        }
        scheduler.advanceTo(1_000_000)
        XCTAssertFalse(ran)
        never.dispose()
    }

    func testSchedulingFromManyThreadsWhileRunningIsSafe() {
        let scheduler = TickScheduler()
        let ran = Atomic<Int>(0)
        let threads = 4
        let perThread = 500
        let started = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for thread in 0..<threads {
            DispatchQueue.global().async(group: group) {
                started.signal()
                for index in 0..<perThread {
                    let item = scheduler.scheduleAbsoluteVirtual((), time: 1_000 + (index * 7 + thread) % 50) { _ in
                        ran.wrappingAdd(1, ordering: .relaxed)
                        return Disposables.create()
                    }
                    if index % 10 == 9 { item.dispose() }
                    _ = scheduler.clock
                    _ = scheduler.now
                }
            }
        }
        for _ in 0..<threads { started.wait() }
        // Meanwhile this thread keeps running what is due before the scheduled items.
        for step in 1...100 { scheduler.advanceTo(step) }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        scheduler.start()
        XCTAssertEqual(ran.load(ordering: .relaxed), threads * perThread * 9 / 10)
        XCTAssertEqual(scheduler.clock, 1_049)
    }
}

final class TestSchedulerClockTests: RxLeakCheckingTestCase {
    func testScheduleIsDelayedOneTickWithProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 100)
        var times: [TestTime] = []
        _ = scheduler.schedule(()) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(0)) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(times, [101, 101, 105])
    }

    func testScheduleRunsAtTheClockWithoutProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 100, simulateProcessingDelay: false)
        var times: [TestTime] = []
        _ = scheduler.schedule(()) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(3)) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(times, [100, 103])
    }

    func testAdjustScheduledTime() {
        let scheduler = TestScheduler(initialClock: 50)
        XCTAssertEqual(scheduler.adjustScheduledTime(40), 51)
        XCTAssertEqual(scheduler.adjustScheduledTime(50), 51)
        XCTAssertEqual(scheduler.adjustScheduledTime(51), 51)
        XCTAssertEqual(scheduler.adjustScheduledTime(80), 80)
        let exact = TestScheduler(initialClock: 50, simulateProcessingDelay: false)
        XCTAssertEqual(exact.adjustScheduledTime(40), 50)
        XCTAssertEqual(exact.adjustScheduledTime(80), 80)
    }

    func testResolutionScalesRealIntervalsToTicks() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
        var times: [TestTime] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(1)) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(300)) { _ in
            times.append(scheduler.clock)
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(times, [3, 10])
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 1))
    }

    func testScheduleAtAndAdvanceTo() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [TestTime] = []
        scheduler.scheduleAt(10) { log.append(scheduler.clock) }
        scheduler.scheduleAt(20) { log.append(scheduler.clock) }
        scheduler.advanceTo(10)
        XCTAssertEqual(log, [10])
        scheduler.sleep(5)
        XCTAssertEqual(scheduler.clock, 15)
        scheduler.start()
        XCTAssertEqual(log, [10, 20])
    }

    func testStartRunsCreateSubscribeDisposeAtTheirTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        let observer = scheduler.start(created: 10, subscribed: 20, disposed: 30) { () -> Observable<Int> in
            log.append("create@\(scheduler.clock)")
            return Observable.create { _ in
                log.append("subscribe@\(scheduler.clock)")
                return Disposables.create { log.append("dispose@\(scheduler.clock)") }
            }
        }
        XCTAssertEqual(log, ["create@10", "subscribe@20", "dispose@30"])
        XCTAssertEqual(observer.events, [])
    }
}

/// Virtual times that are not trivial values (each holds a reference), so that the scheduler's queue,
/// which keeps times in raw memory, is seen to copy, move and release them correctly.
private struct BoxedTime: Sendable {
    final class Box: Sendable {
        let ticks: Int
        init(_ ticks: Int) { self.ticks = ticks }
    }
    let box: Box
    init(_ ticks: Int) { box = Box(ticks) }
    var ticks: Int { box.ticks }
}

private struct BoxedTimeConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: BoxedTime) -> RxTime {
        Date(timeIntervalSince1970: Double(virtualTime.ticks))
    }
    func convertToVirtualTime(_ time: RxTime) -> BoxedTime { BoxedTime(Int(time.timeIntervalSince1970.rounded())) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { Double(virtualTimeInterval) }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval.rounded()) }
    func offsetVirtualTime(_ time: BoxedTime, offset: Int) -> BoxedTime { BoxedTime(time.ticks + offset) }
    func compareVirtualTime(_ lhs: BoxedTime, _ rhs: BoxedTime) -> VirtualTimeComparison {
        lhs.ticks < rhs.ticks ? .lessThan : (lhs.ticks == rhs.ticks ? .equal : .greaterThan)
    }
}

final class VirtualTimeQueueTests: XCTestCase {
    /// Items scheduled from inside actions (reusing the places of items already run), disposed items,
    /// and runs in steps with `advanceTo`, against a model: time order, then scheduling order.
    func testInterleavedSchedulingDisposalAndStepsRunInTimeThenSchedulingOrder() {
        let scheduler = VirtualTimeScheduler(initialClock: BoxedTime(0), converter: BoxedTimeConverter())
        var ran: [Int] = []
        var pending: [(time: Int, id: Int)] = []
        var disposed: Set<Int> = []
        var nextId = 0
        var seed: UInt64 = 7
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        func schedule(at time: Int) {
            let id = nextId
            nextId += 1
            pending.append((time, id))
            let disposable = scheduler.scheduleAbsoluteVirtual(id, time: BoxedTime(time)) { id in
                ran.append(id)
                // Every third action schedules one more, later: it takes a freed place in the queue.
                if id % 3 == 0 { schedule(at: scheduler.clock.ticks + 1 + random(20)) }
                return Disposables.create()
            }
            if random(5) == 0 {
                disposable.dispose()
                disposed.insert(id)
            }
        }
        for _ in 0..<500 { schedule(at: random(100)) }
        for step in stride(from: 10, through: 400, by: 10) {
            scheduler.advanceTo(BoxedTime(step))
            XCTAssertEqual(scheduler.clock.ticks, step)
        }
        // The model: what ran is every live item, in time then scheduling order (an item scheduled
        // during a step is due later than the action that scheduled it).
        let expected = pending.filter { !disposed.contains($0.id) && $0.time <= 400 }
            .sorted { $0.time != $1.time ? $0.time < $1.time : $0.id < $1.id }.map(\.id)
        XCTAssertEqual(ran, expected)
    }

    /// A scheduler dropped with work still queued releases it (and its times).
    func testADroppedSchedulerReleasesItsQueuedWork() {
        final class Marker {}
        weak var weakMarker: Marker?
        do {
            let scheduler = VirtualTimeScheduler(initialClock: BoxedTime(0), converter: BoxedTimeConverter())
            for time in [5, 1, 3, 1, 4] {
                let marker = Marker()
                weakMarker = marker
                _ = scheduler.scheduleAbsoluteVirtual(marker, time: BoxedTime(time)) { _ in Disposables.create() }
            }
            scheduler.advanceTo(BoxedTime(2))
        }
        XCTAssertNil(weakMarker)
    }
}
