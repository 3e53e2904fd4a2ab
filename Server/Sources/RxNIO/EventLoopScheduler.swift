import Foundation
import NIOCore
import RxSwift
import Synchronization

/// A scheduler that runs its work on a SwiftNIO `EventLoop`, through the loop's own tasks.
///
/// `schedule` enqueues with `execute`, `scheduleRelative` with `scheduleTask(in:)`, and
/// `schedulePeriodic` with a chain of `scheduleTask(deadline:)` whose deadlines are fixed multiples of
/// the period from the first one (so ticks do not drift by the time each run takes). Disposing
/// cancels the loop's pending task; an action already running finishes. Work always runs after the
/// scheduling call returns, even when it is made on the loop, so the order of scheduled work is the
/// order of the calls.
///
/// `now` follows the loop's clock (`EventLoop.now`): on `EmbeddedEventLoop` it is virtual time that
/// moves with `advanceTime(by:)`, which is how the scheduler is tested.
///
/// RxSwift: none (the role of `SerialDispatchQueueScheduler` for code that lives on an event loop).
public struct EventLoopScheduler: SchedulerType {
    /// The loop the work runs on.
    public let eventLoop: any EventLoop
    private let epoch: Epoch

    /// A scheduler on `eventLoop`.
    public init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        epoch = Epoch(date: Date(), deadline: eventLoop.now)
    }

    /// The loop's time as a date: the wall-clock time of creation plus the loop's time since then.
    public var now: RxTime {
        let elapsed = eventLoop.now - epoch.deadline
        return epoch.date.addingTimeInterval(Double(elapsed.nanoseconds) / 1e9)
    }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let disposable = SingleAssignmentDisposable()
        let work = LoopBound { (action, state) }
        eventLoop.execute {
            guard !disposable.isDisposed else { return }
            let (action, state) = work.value
            disposable.setDisposable(action(state))
        }
        return disposable
    }

    public func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        guard let delay = dueTime.timeAmount else { return Disposables.create() }
        let result = SingleAssignmentDisposable()
        let work = LoopBound { (action, state) }
        let task = eventLoop.scheduleTask(in: delay) {
            guard !result.isDisposed else { return }
            let (action, state) = work.value
            result.setDisposable(action(state))
        }
        return Disposables.create(result, Disposables.create { task.cancel() })
    }

    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        guard let first = startAfter.timeAmount, let period = period.timeAmount else { return Disposables.create() }
        let timer = PeriodicTimer(
            eventLoop: eventLoop, period: max(period, .nanoseconds(1)), state: state, action: action)
        timer.start(at: eventLoop.now + first)
        return timer
    }
}

extension EventLoopScheduler {
    /// The wall-clock and loop times at which a scheduler was made.
    fileprivate struct Epoch: Sendable {
        let date: Date
        let deadline: NIODeadline
    }
}

extension RxTimeInterval {
    /// The interval as NIO's `TimeAmount`; `nil` for `.never` (the work never runs).
    var timeAmount: TimeAmount? {
        switch self {
        case .seconds(let value): return .seconds(Int64(value))
        case .milliseconds(let value): return .milliseconds(Int64(value))
        case .microseconds(let value): return .microseconds(Int64(value))
        case .nanoseconds(let value): return .nanoseconds(Int64(value))
        case .never: return nil
        @unknown default: return nil
        }
    }
}
