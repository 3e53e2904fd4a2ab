// Needs full Foundation (OperationQueue), which the rest of RxSwift does without: built only with the
// package's `OperationQueueScheduler` trait (on by default). See Performance.md.
#if OperationQueueScheduler
    import Foundation

    /// A scheduler that runs work as operations on an `OperationQueue`.
    ///
    /// Suited to larger pieces of background work whose concurrency you want to tune with the queue's
    /// `maxConcurrentOperationCount` (or pause with `isSuspended`):
    ///
    /// ```swift
    /// let queue = OperationQueue()
    /// queue.maxConcurrentOperationCount = 2
    /// let scheduler = OperationQueueScheduler(operationQueue: queue)
    ///
    /// images
    ///     .observe(on: scheduler)
    ///     .map(resize)
    ///     .subscribe(onNext: show)
    /// ```
    ///
    /// Each scheduled action becomes one `BlockOperation` with the scheduler's ``queuePriority``. Like
    /// the queue it wraps, the scheduler knows no time: it is an ``ImmediateSchedulerType``, for
    /// `observe(on:)`, `subscribe(on:)` and the operators that take an immediate scheduler, not for
    /// timers or `delay`. Operations may run concurrently, so `observe(on:)` on a queue that runs more
    /// than one operation at a time does not keep events in order; use a queue whose
    /// `maxConcurrentOperationCount` is 1 for that.
    ///
    /// Disposing the returned disposable before the operation starts means the action never runs (the
    /// operation still passes through the queue, doing nothing); disposing it afterwards disposes what
    /// the action returned.
    ///
    /// The only part of RxSwift that needs full Foundation: see "Foundation and OperationQueueScheduler"
    /// in the Performance article for what that costs and how to leave it out.
    ///
    /// RxSwift: `OperationQueueScheduler`.
    ///
    /// Thread-safety: both properties are constants and `OperationQueue` is thread-safe; the
    /// conformance is spelled out for SDKs that do not yet mark `OperationQueue` `Sendable`.
    public final class OperationQueueScheduler: ImmediateSchedulerType, @unchecked Sendable {
        /// The queue the operations are added to.
        public let operationQueue: OperationQueue

        /// The queue priority of every operation the scheduler adds.
        public let queuePriority: Operation.QueuePriority

        /// Creates a scheduler that adds its work to `operationQueue`.
        ///
        /// - Parameters:
        ///   - operationQueue: The queue that runs the scheduled actions.
        ///   - queuePriority: The priority of the scheduler's operations relative to the other operations
        ///     waiting in the queue.
        public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
            self.operationQueue = operationQueue
            self.queuePriority = queuePriority
        }

        /// Adds an operation that runs `action` with `state` to the queue.
        ///
        /// - Returns: A disposable that keeps the action from running if the operation has not started,
        ///   and disposes what the action returned if it has.
        public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
            let item = ScheduledItem(state, action: action)
            let box = UncheckedSendable(item)
            let operation = BlockOperation { box.value.invoke() }
            operation.queuePriority = queuePriority
            operationQueue.addOperation(operation)
            return item
        }
    }
#endif
