import CSystemdBus
import Foundation
import Glibc

/// The thread that owns one sd-bus connection. sd-bus is not thread-safe: every call on the bus and
/// its messages happens here. Other threads hand work over as jobs; an eventfd wakes the loop, which
/// polls the bus's socket and the eventfd together, so no job waits for bus traffic.
final class BusLoop: @unchecked Sendable {
    /// Touched only on the loop thread (and in `init` before the thread starts).
    let bus: OpaquePointer
    private let wakeFD: Int32
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var jobs: [@Sendable (BusLoop) -> Void] = []
    /// Guarded by `lock`.
    private var closing = false
    /// Loop-thread state: live signal subscriptions, failed when the connection ends.
    var matches: [ObjectIdentifier: PendingMatch] = [:]
    /// The connection's exported objects, for the method-call callback.
    var registry: ExportRegistry?
    private(set) var thread: pthread_t?
    private let finished = DispatchSemaphore(value: 0)
    /// Called on the loop thread once the connection is gone, whatever ended it.
    var onEnd: (@Sendable (DBusError) -> Void)?

    init(bus: OpaquePointer) throws(DBusError) {
        self.bus = bus
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeFD >= 0 else { throw DBusError(name: DBusError.failed, message: "eventfd failed") }
    }

    func start(name: String) {
        let unmanaged = Unmanaged.passRetained(self)
        var tid = pthread_t()
        let r = pthread_create(
            &tid, nil,
            { raw in
                let loop = Unmanaged<BusLoop>.fromOpaque(raw!).takeRetainedValue()
                loop.run()
                return nil
            }, unmanaged.toOpaque())
        precondition(r == 0, "pthread_create failed")
        thread = tid
        _ = name
    }

    /// Whether the caller is on the loop thread.
    var isCurrent: Bool { thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }

    /// Runs `job` on the loop thread, after every job enqueued before it; dropped once the loop has ended.
    func enqueue(_ job: @escaping @Sendable (BusLoop) -> Void) {
        lock.lock()
        let accepted = !closing
        if accepted { jobs.append(job) }
        lock.unlock()
        guard accepted else { return }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Ends the loop (after the jobs already enqueued) and waits for it unless called from it.
    func close() {
        lock.lock()
        let already = closing
        closing = true
        lock.unlock()
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
        if !already && !isCurrent { finished.wait() }
    }

    /// Runs the jobs handed over so far; whether the loop is to end. The jobs are let go of before the
    /// loop polls, so that what they hold (a finished call's observer, and what it captured) does not
    /// wait for the bus's next message.
    private func runJobs() -> Bool {
        lock.lock()
        let batch = jobs
        jobs = []
        let stop = closing
        lock.unlock()
        for job in batch { job(self) }
        return stop
    }

    private func run() {
        var endError = DBusError.closed
        loop: while true {
            if runJobs() { break }
            while true {
                let r = sd_bus_process(bus, nil)
                if r < 0 {
                    endError = DBusError(
                        name: DBusError.disconnected,
                        message: "the bus connection ended: \(String(cString: strerror(-r)))")
                    break loop
                }
                if r == 0 { break }
            }
            var fds = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
            ]
            var timeoutUsec: UInt64 = 0
            var timeoutMs: Int32 = -1
            if sd_bus_get_timeout(bus, &timeoutUsec) > 0, timeoutUsec != UInt64.max {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
                timeoutMs = timeoutUsec <= nowUsec ? 0 : Int32(min((timeoutUsec - nowUsec + 999) / 1000, 60_000))
            }
            _ = poll(&fds, 2, timeoutMs)
            if fds[1].revents != 0 {
                var value: UInt64 = 0
                _ = read(wakeFD, &value, 8)
            }
        }
        lock.lock()
        closing = true
        let leftover = jobs
        jobs = []
        lock.unlock()
        // Jobs that came in as the loop ended still run, so that their calls fail rather than hang.
        for job in leftover { job(self) }
        let live = Array(matches.values)
        matches = [:]
        for match in live { match.fail(endError) }
        onEnd?(endError)
        sd_bus_flush_close_unref(bus)
        Glibc.close(wakeFD)
        finished.signal()
    }
}
