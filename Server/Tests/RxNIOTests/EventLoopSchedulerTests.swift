import NIOCore
import NIOEmbedded
import RxNIO
import RxSwift
import RxTest
import Testing

/// The scheduler on NIO's embedded loop, where time moves only when the test says so.
@Suite(.serialized, .leakChecked)
struct EventLoopSchedulerTests {
    let loop = EmbeddedEventLoop()
    var scheduler: EventLoopScheduler { EventLoopScheduler(eventLoop: loop) }

    /// Milliseconds of loop time since `start`.
    func elapsed(since start: NIODeadline) -> Int64 { (loop.now - start).nanoseconds / 1_000_000 }

    @Test func scheduleRunsOnTheLoopAfterTheCallReturns() {
        var ran = false
        _ = scheduler.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        #expect(!ran)
        loop.run()
        #expect(ran)
    }

    @Test func disposingScheduledWorkBeforeItRunsSkipsIt() {
        var ran = false
        let work = scheduler.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        work.dispose()
        loop.run()
        #expect(!ran)
    }

    @Test func scheduleRelativeRunsAtItsDueTime() {
        let start = loop.now
        var ranAt: Int64?
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(30)) { _ in
            ranAt = elapsed(since: start)
            return Disposables.create()
        }
        loop.advanceTime(by: .milliseconds(29))
        #expect(ranAt == nil)
        loop.advanceTime(by: .milliseconds(1))
        #expect(ranAt == 30)
    }

    @Test func disposingRelativeWorkCancelsTheLoopsTask() {
        var ran = false
        let work = scheduler.scheduleRelative((), dueTime: .milliseconds(10)) { _ in
            ran = true
            return Disposables.create()
        }
        work.dispose()
        loop.advanceTime(by: .seconds(1))
        #expect(!ran)
    }

    @Test func neverDueWorkNeverRuns() {
        var ran = false
        _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
            ran = true
            return Disposables.create()
        }
        loop.advanceTime(by: .seconds(3600))
        #expect(!ran)
    }

    @Test func periodicWorkTicksAtFixedMultiplesAndStopsOnDisposal() {
        let start = loop.now
        var ticks: [Int64] = []
        let timer = scheduler.schedulePeriodic(0, startAfter: .milliseconds(5), period: .milliseconds(10)) { count in
            ticks.append(elapsed(since: start))
            return count + 1
        }
        loop.advanceTime(by: .milliseconds(35))
        #expect(ticks == [5, 15, 25, 35])
        timer.dispose()
        loop.advanceTime(by: .milliseconds(100))
        #expect(ticks == [5, 15, 25, 35])
    }

    @Test func nowFollowsTheLoopsClock() {
        let scheduler = self.scheduler
        let before = scheduler.now
        loop.advanceTime(by: .seconds(90))
        #expect(abs(scheduler.now.timeIntervalSince(before) - 90) < 0.001)
    }

    @Test func intervalAndTimeoutRunInLoopTime() {
        let start = loop.now
        var received: [(Int, Int64)] = []
        var completedAt: Int64?
        let subscription = Observable<Int>.interval(.milliseconds(100), scheduler: scheduler)
            .take(3)
            .subscribe(
                onNext: { received.append(($0, elapsed(since: start))) },
                onCompleted: { completedAt = elapsed(since: start) })
        loop.advanceTime(by: .milliseconds(1000))
        #expect(received.map(\.0) == [0, 1, 2])
        #expect(received.map(\.1) == [100, 200, 300])
        #expect(completedAt == 300)
        subscription.dispose()
    }

    @Test func delayedElementsArriveOnTheLoopInOrder() {
        var received: [String] = []
        let subscription = Observable.of("a", "b", "c")
            .delay(.milliseconds(50), scheduler: scheduler)
            .subscribe(onNext: { received.append($0) })
        loop.advanceTime(by: .milliseconds(49))
        #expect(received.isEmpty)
        // `delay` works out its due times from `now`, a `Date`, whose precision at today's dates is
        // about 100 ns: the later elements come due a fraction of a microsecond after the first.
        loop.advanceTime(by: .milliseconds(2))
        #expect(received == ["a", "b", "c"])
        subscription.dispose()
    }

    @Test func disposingAnIntervalStopsItsTicks() {
        var received: [Int] = []
        let subscription = Observable<Int>.interval(.milliseconds(10), scheduler: scheduler)
            .subscribe(onNext: { received.append($0) })
        loop.advanceTime(by: .milliseconds(25))
        subscription.dispose()
        loop.advanceTime(by: .milliseconds(100))
        #expect(received == [0, 1])
    }
}
