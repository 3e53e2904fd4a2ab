import Dispatch
import Synchronization

/// The scheduler of the main thread (the main dispatch queue).
///
/// ``instance`` runs an action at once when called on the main thread with nothing of its own queued,
/// and otherwise queues it; ``asyncInstance`` always queues. On Linux a program must run
/// `dispatchMain()` (or a run loop) for queued work to run.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    private let numberEnqueued = Atomic<Int>(0)

    /// Creates a main-thread scheduler.
    public init() {
        super.init(configuration: .main)
    }

    /// The shared main-thread scheduler.
    public static let instance = MainScheduler()

    /// A scheduler that always queues work on the main queue, even when already on the main thread.
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

    /// Traps unless called on the main thread.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        if !isMainThread {
            rxFatalError(
                errorMessage
                    ?? "Executing on a background thread. Please use `MainScheduler.instance.schedule` to schedule work on the main thread."
            )
        }
    }

    /// Traps unless called on the main thread.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        if !isMainThread {
            rxFatalError(errorMessage ?? "Running on a background thread.")
        }
    }

    override func scheduleInternal<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
        if admit() {
            let disposable = action(state)
            finish()
            return disposable
        }
        let item = ScheduledItem(state, action: action)
        runQueued { item.invoke() }
        return item
    }

    override func beginRunningInline() -> Bool {
        if admit() { return true }
        finish()
        return false
    }

    override func endRunningInline() {
        finish()
    }

    override func enqueue(_ work: @escaping () -> Void) {
        if admit() {
            work()
            finish()
            return
        }
        runQueued(work)
    }

    /// Counts a piece of work in (``finish()`` counts it out once it has run); whether it may run at
    /// once: on the main thread, with nothing of this scheduler's queued for it to overtake.
    private func admit() -> Bool {
        let previouslyEnqueued = numberEnqueued.wrappingAdd(1, ordering: .relaxed).oldValue
        return isMainThread && previouslyEnqueued == 0
    }

    private func finish() {
        numberEnqueued.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Queues admitted work on the main queue, counting it out once it has run.
    private func runQueued(_ work: @escaping () -> Void) {
        let box = UncheckedSendable(work)
        configuration.async { [self] in
            box.value()
            finish()
        }
    }
}

func rxFatalError(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
