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
/// required to be `@Sendable` (DESIGN §4); a scheduler runs them on its own thread or queue.
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
    /// Periodic scheduling built from recursive relative scheduling, for schedulers that have no
    /// native timer.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        let periodic = PeriodicState(state: state, action: action)
        return scheduleRecursive(periodic, dueTime: startAfter) { periodic, recurse in
            periodic.state = periodic.action(periodic.state)
            recurse(periodic)
        }
    }

    func scheduleRecursive<State>(
        _ state: State, dueTime: RxTimeInterval, action: @escaping (State, (State) -> Void) -> Void
    ) -> Disposable {
        let scheduler = RecursiveScheduler(scheduler: self, action: action)
        scheduler.schedule(state, dueTime: dueTime)
        return scheduler
    }
}

/// The mutable state of a periodic schedule; runs are serialized by the scheduler.
private final class PeriodicState<State> {
    var state: State
    let action: (State) -> State

    init(state: State, action: @escaping (State) -> State) {
        self.state = state
        self.action = action
    }
}

extension ImmediateSchedulerType {
    /// Schedules `action` and lets it schedule itself again through its second argument, without
    /// growing the stack.
    public func scheduleRecursive<State>(
        _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
    ) -> Disposable {
        let scheduler = RecursiveScheduler(scheduler: self, action: action)
        scheduler.schedule(state, dueTime: nil)
        return scheduler
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
