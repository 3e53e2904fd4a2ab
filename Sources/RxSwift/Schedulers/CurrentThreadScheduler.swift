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
/// lookup (DESIGN §3). Unlike RxSwift, subscribing to an observable does not itself go through the
/// trampoline, so two sequences subscribed one after the other outside of a scheduled action run one
/// after the other; inside a scheduled action they interleave as in RxSwift.
public final class CurrentThreadScheduler: ImmediateSchedulerType {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// Whether a `schedule` on this thread would run its action at once (no trampoline is running).
    public static var isScheduleRequired: Bool {
        !(Trampoline.existing?.isRunning ?? false)
    }

    /// Runs `action` now if no trampoline runs on this thread, otherwise queues it behind the running
    /// work.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = Trampoline.current
        if trampoline.isRunning {
            let item = ScheduledItem(state, action: action)
            trampoline.queue.enqueue(item)
            return item
        }
        trampoline.isRunning = true
        defer { trampoline.isRunning = false }
        let disposable = action(state)
        while let item = trampoline.queue.dequeue() {
            item.invoke()
        }
        trampoline.releaseExcessStorage()
        return disposable
    }
}

/// The per-thread queue of the current-thread scheduler, found through a pthread key. It is created
/// on a thread's first `schedule` and kept (released when the thread exits), so that running the
/// trampoline allocates nothing once the thread has used it.
private final class Trampoline {
    var isRunning = false
    var queue = Queue<any InvocableItem>()

    /// Drops the storage a long burst left behind.
    func releaseExcessStorage() {
        if queue.capacity > 64 { queue.removeAll() }
    }

    static var existing: Trampoline? {
        guard let pointer = pthread_getspecific(trampolineKey) else { return nil }
        return Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
    }

    static var current: Trampoline {
        if let existing { return existing }
        let trampoline = Trampoline()
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }
}

private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
        let status = pthread_key_create(&key) { pointer in
            Unmanaged<Trampoline>.fromOpaque(pointer).release()
        }
    #else
        let status = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<Trampoline>.fromOpaque(pointer).release() }
        }
    #endif
    precondition(status == 0, "CurrentThreadScheduler: pthread_key_create failed (\(status))")
    return key
}()
