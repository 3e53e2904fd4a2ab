#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A scheduler that runs work on the current thread, after the work already running there: the
/// first `schedule` on a thread runs its action at once and then drains, in order, everything the
/// action (and its descendants) scheduled. This "trampoline" turns recursion into iteration.
///
/// Only sources that schedule on it touch the trampoline; a plain subscription pays no thread-local
/// lookup (DESIGN §3).
public final class CurrentThreadScheduler: ImmediateSchedulerType {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// Whether a `schedule` on this thread would run its action at once (no trampoline is running).
    public static var isScheduleRequired: Bool {
        Trampoline.current == nil
    }

    /// Runs `action` now if no trampoline runs on this thread, otherwise queues it behind the running
    /// work.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let trampoline = Trampoline.current {
            let item = ScheduledItem(state, action: action)
            trampoline.queue.enqueue(item)
            return item
        }
        let trampoline = Trampoline()
        Trampoline.current = trampoline
        defer { Trampoline.current = nil }
        let disposable = action(state)
        while let item = trampoline.queue.dequeue() {
            item.invoke()
        }
        return disposable
    }
}

/// The per-thread queue of the current-thread scheduler, found through a pthread key.
private final class Trampoline {
    var queue = Queue<any InvocableItem>()

    static var current: Trampoline? {
        get {
            guard let pointer = pthread_getspecific(trampolineKey) else { return nil }
            return Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            if let old = pthread_getspecific(trampolineKey) {
                Unmanaged<Trampoline>.fromOpaque(old).release()
            }
            let pointer = newValue.map { Unmanaged.passRetained($0).toOpaque() }
            pthread_setspecific(trampolineKey, pointer)
        }
    }
}

private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "CurrentThreadScheduler: pthread_key_create failed (\(status))")
    return key
}()
