import Synchronization

/// Runs an action that reschedules itself through `recurse`, keeping the disposables of pending runs
/// so that disposing the whole schedule cancels whatever is pending.
///
/// Thread-safety: the pending set lives behind a `Mutex`; actions and disposals run after unlocking.
final class RecursiveScheduler<State, Scheduler: ImmediateSchedulerType>: Disposable, @unchecked Sendable {
    private struct Pending {
        var disposables: [Int: Disposable] = [:]
        /// Runs that finished before `schedule` could store their disposable (immediate schedulers).
        var ranEarly = Set<Int>()
        var nextKey = 0
        var disposed = false
    }

    private let scheduler: Scheduler
    private let action: (State, (State) -> Void) -> Void
    private let pending = Mutex(Pending())

    init(scheduler: Scheduler, action: @escaping (State, (State) -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    /// Schedules one run, immediately (`dueTime == nil`) or after `dueTime` on a timed scheduler.
    func schedule(_ state: State, dueTime: RxTimeInterval?) {
        let key: Int? = pending.withLock { pending in
            if pending.disposed { return nil }
            defer { pending.nextKey += 1 }
            return pending.nextKey
        }
        guard let key else { return }
        let run: (State) -> Disposable = { [self] state in
            self.pending.withLock { pending in
                if pending.disposables.removeValue(forKey: key) == nil { pending.ranEarly.insert(key) }
            }
            if self.isDisposed { return Disposables.create() }
            self.action(state) { [self] next in self.schedule(next, dueTime: dueTime) }
            return Disposables.create()
        }
        let disposable: Disposable
        if let dueTime, let timed = scheduler as? any SchedulerType {
            disposable = timed.scheduleRelative(state, dueTime: dueTime, action: run)
        } else {
            disposable = scheduler.schedule(state, action: run)
        }
        let disposeNow: Bool = pending.withLock { pending in
            if pending.disposed { return true }
            // The run may already have happened (immediate schedulers); then there is nothing to keep.
            if pending.ranEarly.remove(key) == nil { pending.disposables[key] = disposable }
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    var isDisposed: Bool {
        pending.withLock { $0.disposed }
    }

    func dispose() {
        let disposables: [Int: Disposable] = pending.withLock { pending in
            if pending.disposed { return [:] }
            pending.disposed = true
            defer { pending.disposables = [:] }
            return pending.disposables
        }
        for disposable in disposables.values { disposable.dispose() }
    }
}
