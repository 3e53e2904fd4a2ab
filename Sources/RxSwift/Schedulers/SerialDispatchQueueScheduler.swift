import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A scheduler that runs work on a serial dispatch queue, one item at a time, in order.
///
/// `observe(on:)` has an optimized path for serial schedulers.
public class SerialDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    /// The time type.
    public typealias TimeInterval = Double
    /// The absolute time type.
    public typealias Time = Date

    let configuration: DispatchQueueConfiguration

    /// The current time.
    public var now: Date { Date() }

    init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: serialQueue, leeway: leeway)
    }

    init(configuration: DispatchQueueConfiguration) {
        self.configuration = configuration
    }

    /// Creates a scheduler with a new serial queue named `internalSerialQueueName`.
    public convenience init(
        internalSerialQueueName: String,
        serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        let queue = DispatchQueue(label: internalSerialQueueName)
        serialQueueConfiguration?(queue)
        self.init(serialQueue: queue, leeway: leeway)
    }

    /// Creates a scheduler that serializes work onto `queue` (which may be concurrent) through a new
    /// serial queue targeting it. The main queue is used as it is.
    public convenience init(
        queue: DispatchQueue, internalSerialQueueName: String, leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        if DispatchQueueConfiguration.isMainQueue(queue) {
            self.init(serialQueue: queue, leeway: leeway)
        } else {
            self.init(serialQueue: DispatchQueue(label: internalSerialQueueName, target: queue), leeway: leeway)
        }
    }

    /// Creates a scheduler that serializes work onto the global queue of `qos`.
    public convenience init(
        qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        self.init(
            queue: DispatchQueue.global(qos: qos.qosClass), internalSerialQueueName: internalSerialQueueName,
            leeway: leeway)
    }

    /// Schedules `action` on the queue.
    public final func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        scheduleInternal(state, action: action)
    }

    func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        configuration.schedule(state, action: action)
    }

    /// Runs `work` on the queue without a cancellation handle: `observe(on:)` delivers each event this
    /// way (the serial queue keeps them in order) and checks disposal itself. A plain closure, not a
    /// generic payload (Benchmarks/README.md, "Bluetooth notifications").
    func enqueue(_ work: @escaping () -> Void) {
        // The sink that made `work` serializes its events itself; the queue only carries them.
        nonisolated(unsafe) let work = work
        configuration.async { work() }
    }

    /// Whether the caller may run its work at once, on this thread, instead of enqueueing it; a
    /// `true` must be followed by ``endRunningInline()`` once the work has run. Only `MainScheduler`
    /// says yes (on the main thread with nothing of its own queued).
    func beginRunningInline() -> Bool { false }

    /// Ends what ``beginRunningInline()`` allowed.
    func endRunningInline() {}

    /// Schedules `action` on the queue after `dueTime`.
    public final func scheduleRelative<StateType>(
        _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
    ) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Schedules `action` periodically on the queue.
    public func schedulePeriodic<StateType>(
        _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
        action: @escaping (StateType) -> StateType
    ) -> Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
