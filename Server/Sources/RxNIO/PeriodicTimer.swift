import NIOCore
import RxSwift
import Synchronization

/// The periodic work of ``EventLoopScheduler``: one `scheduleTask(deadline:)` at a time, the next made
/// when the current one runs, at `start + n × period`.
///
/// Thread-safety: the pending task and the disposed flag live behind a `Mutex` (dispose may come from
/// any thread); the state and the action are touched only on the loop, one run at a time.
final class PeriodicTimer<State>: Disposable, @unchecked Sendable {
    private struct Pending {
        var task: Scheduled<Void>?
        var disposed = false
    }

    private let pending = Mutex(Pending())
    private let eventLoop: any EventLoop
    private let period: TimeAmount
    private let action: (State) -> State
    private var state: State

    init(eventLoop: any EventLoop, period: TimeAmount, state: State, action: @escaping (State) -> State) {
        self.eventLoop = eventLoop
        self.period = period
        self.state = state
        self.action = action
    }

    /// Schedules the first run at `deadline`.
    func start(at deadline: NIODeadline) {
        arm(at: deadline)
    }

    func dispose() {
        let task = pending.withLock { pending -> Scheduled<Void>? in
            pending.disposed = true
            defer { pending.task = nil }
            return pending.task
        }
        task?.cancel()
    }

    private func arm(at deadline: NIODeadline) {
        let task = eventLoop.scheduleTask(deadline: deadline) { [self] in tick(deadline) }
        let cancelled = pending.withLock { pending -> Bool in
            if pending.disposed { return true }
            pending.task = task
            return false
        }
        if cancelled { task.cancel() }
    }

    /// Runs on the loop: one run of the action, then the next deadline (skipping any that passed while
    /// the loop was busy, as a dispatch timer coalesces missed ticks).
    private func tick(_ deadline: NIODeadline) {
        if pending.withLock({ $0.disposed }) { return }
        state = action(state)
        var next = deadline + period
        let now = eventLoop.now
        if next < now {
            let missed = (now - next).nanoseconds / period.nanoseconds + 1
            next = next + .nanoseconds(missed * period.nanoseconds)
        }
        arm(at: next)
    }
}
