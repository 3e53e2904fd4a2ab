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
/// As in RxSwift, every subscription made while no trampoline runs on the thread starts one
/// (``Observable/subscribe(_:)``, `subscribe(onNext:…)`, the inner subscriptions of operators), so
/// that what a subscription schedules here runs after the subscription is complete. Finding out
/// costs one `pthread_getspecific` (see the Performance article).
public final class CurrentThreadScheduler: ImmediateSchedulerType {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// Whether a `schedule` on this thread would run its action at once (no trampoline is running).
    public static var isScheduleRequired: Bool {
        !(Trampoline.existing?.isRunning ?? false)
    }

    /// Runs `subscribe` as the first work of a new trampoline, then everything it queued, if no
    /// trampoline runs on this thread; otherwise just runs it.
    @usableFromInline
    static func trampolined(_ subscribe: () -> Disposable) -> Disposable {
        guard let pointer = pthread_getspecific(trampolineKey) else {
            return Trampoline.makeCurrent().run(subscribe)
        }
        // The thread's trampoline lives as long as the thread: no retain is needed to use it here.
        return Unmanaged<Trampoline>.fromOpaque(pointer)._withUnsafeGuaranteedRef { trampoline in
            trampoline.isRunning ? subscribe() : trampoline.run(subscribe)
        }
    }

    /// Runs `work` as the first work of a trampoline of its own on this thread, then everything it
    /// queued, and returns: a running trampoline is set aside meanwhile (its queue kept for when it
    /// resumes), so what `work` subscribes runs now instead of queueing behind the caller. For
    /// `toBlocking`, which waits on this thread for what it subscribed and would otherwise wait for
    /// work queued behind itself.
    @_spi(RxBlocking)
    public static func runOnOwnTrampoline(_ work: () -> Void) {
        let trampoline = Trampoline.current
        guard trampoline.isRunning else {
            _ = trampoline.run {
                work()
                return Disposables.create()
            }
            return
        }
        var outer = Queue<any InvocableItem>()
        swap(&outer, &trampoline.queue)
        trampoline.isRunning = false
        _ = trampoline.run {
            work()
            return Disposables.create()
        }
        trampoline.isRunning = true
        swap(&outer, &trampoline.queue)
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
        return trampoline.run { action(state) }
    }
}

/// The per-thread queue of the current-thread scheduler, found through a pthread key: made on a
/// thread's first `schedule` and kept until the thread exits.
private final class Trampoline {
    // Only its own thread touches a trampoline: no exclusivity checks (they cost more than the rest
    // of a subscription's visit here).
    @exclusivity(unchecked) var isRunning = false
    @exclusivity(unchecked) var queue = Queue<any InvocableItem>()

    /// Runs `work` as the first work of this trampoline, then everything queued meanwhile.
    @inline(__always)
    func run(_ work: () -> Disposable) -> Disposable {
        isRunning = true
        let disposable = work()
        if !queue.isEmpty { drain() }
        isRunning = false
        return disposable
    }

    /// Runs the queued work in order, then drops the storage a long burst left behind.
    @inline(never)
    func drain() {
        while let item = queue.dequeue() {
            item.invoke()
        }
        if queue.capacity > 64 { queue.removeAll() }
    }

    static var existing: Trampoline? {
        guard let pointer = pthread_getspecific(trampolineKey) else { return nil }
        return Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
    }

    static var current: Trampoline {
        existing ?? makeCurrent()
    }

    /// Makes the trampoline of this thread, on its first use; released when the thread exits.
    @inline(never)
    static func makeCurrent() -> Trampoline {
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
