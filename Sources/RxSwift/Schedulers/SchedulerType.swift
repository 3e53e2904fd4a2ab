import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A time interval for schedulers, as in RxSwift.
public typealias RxTimeInterval = DispatchTimeInterval

/// An absolute time for schedulers, as in RxSwift.
public typealias RxTime = Date

/// A scheduler that runs work as soon as possible.
///
/// Schedulers are `Sendable`: operators hand them across threads. The `action` closures are not
/// required to be `@Sendable` (the Contracts article); a scheduler runs them on its own thread or queue.
public protocol ImmediateSchedulerType: Sendable {
    /// Schedules `action` to run with `state`.
    ///
    /// - Returns: A disposable that cancels the action if it has not started, and disposes what the
    ///   action returned if it has.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// A scheduler that also knows time: it can run work after a delay and periodically.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action` to run with `state` after `dueTime`.
    func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable

    /// Schedules `action` to run first after `startAfter`, then every `period`, each time with the
    /// state the previous run returned.
    func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling emulated with relative scheduling, for schedulers that have no native
    /// timer (virtual-time schedulers among them): the first run is `startAfter` from now, each next
    /// one `period` after the previous tick. Runs never overlap; ticks that come due while a run is
    /// still going are run one after the other.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let periodic = PeriodicRecursiveSchedule(state: state, period: period, action: action)
        let recursive = RecursiveScheduler<PeriodicRecursiveSchedule<StateType>.Command, Self>(
            scheduler: self, timed: self
        ) { command, recursive in
            periodic.run(command, recursive)
        }
        recursive.schedule(.tick, dueTime: startAfter)
        return recursive
    }

    /// Schedules `action` after `dueTime`; every `recurse` schedules it again `dueTime` later.
    func scheduleRecursive<State>(
        _ state: State, dueTime: RxTimeInterval, action: @escaping (State, (State) -> Void) -> Void
    ) -> Disposable {
        let recursive = RecursiveScheduler<State, Self>(scheduler: self, timed: self) { state, recursive in
            action(state) { recursive.schedule($0, dueTime: dueTime) }
        }
        recursive.schedule(state, dueTime: dueTime)
        return recursive
    }
}

extension ImmediateSchedulerType {
    /// Schedules `action` and lets it schedule itself again through its second argument, without
    /// growing the stack on the trampoline or on any queueing scheduler.
    ///
    /// Disposing the returned disposable cancels the pending run; a run already going finishes.
    public func scheduleRecursive<State>(
        _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
    ) -> Disposable {
        let recursive = RecursiveScheduler<State, Self>(scheduler: self, timed: nil) { state, recursive in
            action(state) { recursive.schedule($0) }
        }
        recursive.schedule(state)
        return recursive
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds (`.never` is infinity).
    var seconds: Double {
        switch self {
        case .seconds(let value): return Double(value)
        case .milliseconds(let value): return Double(value) / 1_000
        case .microseconds(let value): return Double(value) / 1_000_000
        case .nanoseconds(let value): return Double(value) / 1_000_000_000
        case .never: return .infinity
        @unknown default: return .infinity
        }
    }
}
