import Synchronization

/// Runs an action that reschedules itself (through ``schedule(_:dueTime:)``), keeping the disposables
/// of pending runs so that disposing the whole schedule cancels whatever is pending. A run removes its
/// own entry before it starts, so the bookkeeping holds only what is really pending.
///
/// Thread-safety: the pending set lives behind a `Mutex`; actions and disposals run after unlocking.
final class RecursiveScheduler<State, Scheduler: ImmediateSchedulerType>: Disposable, @unchecked Sendable {
    typealias Action = (State, RecursiveScheduler<State, Scheduler>) -> Void

    private struct Pending {
        var disposables: [Int: Disposable] = [:]
        /// Runs that started before `schedule` could store their disposable (immediate or concurrent
        /// schedulers).
        var ranEarly = Set<Int>()
        var nextKey = 0
        var disposed = false
    }

    private let scheduler: Scheduler
    /// The same scheduler seen as timed, when it is one (given by the caller, so no cast per run).
    private let timed: (any SchedulerType)?
    private let action: Action
    private let pending = Mutex(Pending())

    init(scheduler: Scheduler, timed: (any SchedulerType)?, action: @escaping Action) {
        self.scheduler = scheduler
        self.timed = timed
        self.action = action
    }

    /// Schedules one run: immediately (`dueTime == nil`) or after `dueTime` on a timed scheduler.
    /// Does nothing once disposed.
    func schedule(_ state: State, dueTime: RxTimeInterval? = nil) {
        let key: Int? = pending.withAnnotatedLock { pending in
            if pending.disposed { return nil }
            defer { pending.nextKey += 1 }
            return pending.nextKey
        }
        guard let key else { return }
        let run: (State) -> Disposable = { [self] state in
            let (disposed, finished): (Bool, Disposable?) = self.pending.withAnnotatedLock { pending in
                let finished = pending.disposables.removeValue(forKey: key)
                if finished == nil { pending.ranEarly.insert(key) }
                return (pending.disposed, finished)
            }
            // Released after unlocking: a scheduler's disposable may run code when it goes away.
            withExtendedLifetime(finished) {}
            if !disposed { self.action(state, self) }
            return Disposables.create()
        }
        let disposable: Disposable
        if let dueTime, let timed {
            disposable = timed.scheduleRelative(state, dueTime: dueTime, action: run)
        } else {
            disposable = scheduler.schedule(state, action: run)
        }
        let disposeNow: Bool = pending.withAnnotatedLock { pending in
            if pending.disposed { return true }
            if pending.ranEarly.remove(key) == nil { pending.disposables[key] = disposable }
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// How many runs are scheduled and not started (for tests of the bookkeeping).
    var pendingCount: Int {
        pending.withAnnotatedLock { $0.disposables.count + $0.ranEarly.count }
    }

    var isDisposed: Bool {
        pending.withAnnotatedLock { $0.disposed }
    }

    func dispose() {
        let disposables: [Int: Disposable] = pending.withAnnotatedLock { pending in
            if pending.disposed { return [:] }
            pending.disposed = true
            defer {
                pending.disposables = [:]
                pending.ranEarly = []
            }
            return pending.disposables
        }
        for disposable in disposables.values { disposable.dispose() }
    }
}

/// The default periodic schedule of a ``SchedulerType`` without a native timer, as RxSwift emulates
/// it: each tick first schedules the next one (so the period does not drift by the action's cost),
/// then runs the action unless a previous run is still going, in which case the runs queue up.
final class PeriodicRecursiveSchedule<State>: @unchecked Sendable {
    enum Command {
        case tick
        case dispatchStart
    }

    /// Written only by the serialized runs (the pending-tick count orders them).
    private var state: State
    private let action: (State) -> State
    private let period: RxTimeInterval
    private let pendingTicks = Atomic<Int>(0)

    init(state: State, period: RxTimeInterval, action: @escaping (State) -> State) {
        self.state = state
        self.period = period
        self.action = action
    }

    func run<Scheduler>(_ command: Command, _ recursive: RecursiveScheduler<Command, Scheduler>) {
        switch command {
        case .tick:
            recursive.schedule(.tick, dueTime: period)
            if pendingTicks.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
                run(.dispatchStart, recursive)
            }
        case .dispatchStart:
            state = action(state)
            if pendingTicks.wrappingSubtract(1, ordering: .acquiringAndReleasing).oldValue > 1 {
                recursive.schedule(.dispatchStart)
            }
        }
    }
}
