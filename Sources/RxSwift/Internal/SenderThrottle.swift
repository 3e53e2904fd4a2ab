import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread's identity, never 0.
@inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}

/// Keeps a drain loop's backlog bounded and its holder free to leave (DESIGN.md, "The drain loop"):
/// past ``backlogLimit`` queued events, a sender that is not the holder waits until the holder has
/// drained and given the claim back, or ``longestWait`` at most, so that two loops feeding each
/// other from two threads slow down instead of deadlocking. A re-entrant sender never waits.
///
/// Part of a ``DrainLoop``, guarded by its owner's lock; the waiting happens after unlocking.
struct SenderThrottle {
    static let backlogLimit = 256
    static let longestWait = DispatchTimeInterval.milliseconds(20)

    /// The thread draining the backlog; 0 while nobody does.
    private var drainer: UInt = 0
    private var gate: ThrottleGate?
    /// The sender told to wait (0: none), for owners that wait in another function.
    private var waiter: UInt = 0
    /// This drain went past the limit; other senders wait until it ends.
    private var throttling = false

    /// The holder starts draining the backlog. (Every `…Locked` member: under the owner's lock.)
    @inline(__always)
    mutating func holderDrainsLocked() {
        if drainer == 0 { drainer = currentThreadID() }
    }

    /// After queueing behind `backlog` events: the gate to wait at after unlocking, if the backlog is too
    /// long and the caller is not the holder.
    mutating func gateLocked(backlog: Int) -> ThrottleGate? {
        // Once past the limit, every other sender waits until this drain ends: else a sender faster than
        // the holder keeps the backlog at the limit and the holder never leaves.
        guard backlog > Self.backlogLimit || throttling, drainer != 0, drainer != currentThreadID() else {
            return nil
        }
        throttling = true
        let gate = self.gate ?? ThrottleGate()
        self.gate = gate
        gate.waiting += 1
        return gate
    }

    /// As ``gateLocked(backlog:)``, remembering the waiter and raising `flag` for the owner to read.
    mutating func registerLocked(backlog: Int, raising flag: borrowing Atomic<Bool>) {
        guard gateLocked(backlog: backlog) != nil else { return }
        waiter = currentThreadID()
        flag.store(true, ordering: .relaxed)
    }

    /// The gate the calling thread was told to wait at, if any, lowering `flag`; none if its drain has
    /// ended. (Of two senders throttled at once the later takes the place: the limit is only looser.)
    mutating func takeGateLocked(clearing flag: borrowing Atomic<Bool>) -> ThrottleGate? {
        guard waiter != 0 else {
            flag.store(false, ordering: .relaxed)
            return nil
        }
        guard waiter == currentThreadID() else { return nil }
        waiter = 0
        flag.store(false, ordering: .relaxed)
        return gate
    }

    /// The holder gives the claim back (or stops): the waiters to wake after unlocking.
    @inline(__always)
    mutating func tokenReleasedLocked() -> ThrottleWakeUp? {
        drainer = 0
        throttling = false
        guard let gate else { return nil }
        // A fresh gate per drain: signals for senders whose wait timed out die with the old one.
        self.gate = nil
        return gate.waiting > 0 ? ThrottleWakeUp(gate: gate, count: gate.waiting) : nil
    }
}

/// Senders to wake, decided under the lock, woken after unlocking.
struct ThrottleWakeUp {
    let gate: ThrottleGate
    let count: Int

    func wake() {
        gate.wake(count)
    }
}

/// Where senders wait for a drain loop's holder; made by the first sender that waits. `waiting` is
/// guarded by the owner's lock; the semaphore is thread-safe.
final class ThrottleGate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    var waiting = 0

    /// Waits for ``wake(_:)`` or ``SenderThrottle/longestWait``; whether woken in time. Never under a lock.
    @discardableResult
    func wait() -> Bool {
        semaphore.wait(timeout: .now() + SenderThrottle.longestWait) == .success
    }

    /// Wakes `count` senders; never under a lock. (A late signal lets a later sender pass at once,
    /// which only loosens the limit.)
    func wake(_ count: Int) {
        for _ in 0..<count { semaphore.signal() }
    }
}
