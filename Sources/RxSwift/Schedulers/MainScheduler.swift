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
        let previouslyEnqueued = numberEnqueued.wrappingAdd(1, ordering: .relaxed).oldValue
        if isMainThread && previouslyEnqueued == 0 {
            let disposable = action(state)
            numberEnqueued.wrappingSubtract(1, ordering: .relaxed)
            return disposable
        }
        let item = ScheduledItem(state, action: action)
        let box = UncheckedSendable((item, self))
        configuration.async {
            let (item, scheduler) = box.value
            item.invoke()
            scheduler.numberEnqueued.wrappingSubtract(1, ordering: .relaxed)
        }
        return item
    }

    override func beginRunningInline() -> Bool {
        let previouslyEnqueued = numberEnqueued.wrappingAdd(1, ordering: .relaxed).oldValue
        if isMainThread && previouslyEnqueued == 0 { return true }
        numberEnqueued.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    override func endRunningInline() {
        numberEnqueued.wrappingSubtract(1, ordering: .relaxed)
    }

    override func enqueue<Payload>(_ payload: Payload, _ run: @escaping (Payload) -> Void) {
        let previouslyEnqueued = numberEnqueued.wrappingAdd(1, ordering: .relaxed).oldValue
        if isMainThread && previouslyEnqueued == 0 {
            run(payload)
            numberEnqueued.wrappingSubtract(1, ordering: .relaxed)
            return
        }
        let work = UncheckedSendable((payload, run, self))
        configuration.async {
            let (payload, run, scheduler) = work.value
            run(payload)
            scheduler.numberEnqueued.wrappingSubtract(1, ordering: .relaxed)
        }
    }
}

func rxFatalError(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
