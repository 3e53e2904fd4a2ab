import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc

    // glibc exports gettid but its header hides it without _GNU_SOURCE.
    @_silgen_name("gettid") private func rxGettid() -> Int32

    /// Whether this thread is the main thread (its thread id is the pid; remembered per thread, as
    /// `gettid` is a system call) or runs the main queue's work: after `dispatchMain()` (or a
    /// top-level `await`) main-queue blocks run on a libdispatch thread, where `MainScheduler` must
    /// also run work at once.
    var isMainThread: Bool {
        // Cached per thread: 1 for the process's first thread, 2 for any other.
        var cached = Int(bitPattern: pthread_getspecific(isMainThreadKey))
        if cached == 0 {
            cached = getpid() == rxGettid() ? 1 : 2
            pthread_setspecific(isMainThreadKey, UnsafeRawPointer(bitPattern: cached))
        }
        return cached == 1 || DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Set on the main queue only: a block running on it finds it with `getSpecific`.
    private let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    private let isMainThreadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "isMainThread: pthread_key_create failed (\(status))")
        return key
    }()
#elseif canImport(Darwin)
    import Darwin

    /// Whether the caller runs on the process's main thread.
    var isMainThread: Bool { pthread_main_np() != 0 }
#else
    var isMainThread: Bool { false }
#endif

/// Where main-thread work goes: one FIFO queue, run both by the main dispatch queue (each item posts
/// one block, which runs the oldest item) and by a main thread RxBlocking blocks inside a main-queue
/// block, so that waiting there for a `MainScheduler` source cannot deadlock, and work keeps its order
/// whoever runs it.
enum MainQueue {
    private struct Pump {
        var work = Queue<@Sendable () -> Void>()
        var depth = 0
    }

    private static let pump = Mutex(Pump())
    static let wakeUp = DispatchSemaphore(value: 0)

    /// Runs `work` on the main thread, asynchronously, after the work queued before it.
    static func async(_ work: @escaping @Sendable () -> Void) {
        let pumping: Bool = pump.withAnnotatedLock { pump in
            pump.work.enqueue(work)
            return pump.depth > 0
        }
        if pumping { wakeUp.signal() }
        // Finds nothing to run when a blocked main thread already ran the item.
        DispatchQueue.main.async { runOldest() }
    }

    private static func runOldest() {
        pump.withAnnotatedLock { $0.work.dequeue() }?()
    }

    /// Blocks the main thread until `isDone()` returns true or `deadline` passes, running the
    /// main-thread work that arrives meanwhile. Returns whether `isDone()` became true.
    static func pumpUntil(deadline: DispatchTime, _ isDone: () -> Bool) -> Bool {
        pump.withAnnotatedLock { $0.depth += 1 }
        defer { pump.withAnnotatedLock { $0.depth -= 1 } }
        while true {
            while let work = pump.withAnnotatedLock({ $0.work.dequeue() }) {
                work()
            }
            if isDone() { return true }
            if wakeUp.wait(timeout: deadline) == .timedOut {
                return isDone()
            }
        }
    }
}

/// Entry points for RxBlocking; not part of the public API.
@_spi(RxBlocking)
public enum MainThreadPump {
    /// Whether the caller runs on the main thread.
    public static var isOnMainThread: Bool { isMainThread }

    /// Blocks the main thread until `isDone()` or `deadline`, running main-scheduler work meanwhile.
    public static func run(until deadline: DispatchTime, _ isDone: () -> Bool) -> Bool {
        MainQueue.pumpUntil(deadline: deadline, isDone)
    }

    /// Wakes a pumping main thread so that it re-checks its condition.
    public static func wake() {
        MainQueue.wakeUp.signal()
    }
}
