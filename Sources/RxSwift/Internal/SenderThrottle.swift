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

/// Keeps the backlog of a drain loop (the Contracts article) bounded and its token holder free to leave.
///
/// In a drain loop, a thread that finds the token taken queues its event and returns; the holder
/// delivers it. If another thread sends faster than the holder delivers, the backlog grows without
/// limit and the holder never gets back to its own work — a thread subscribing to
/// `combineLatest(fastSubject, just(1))` stayed inside `subscribe` for as long as the subject was fed
/// (and grew to 14 GB). A lock would have made that sender wait; so does this, but only past
/// ``backlogLimit`` queued events, only if the sender is not the holder (a re-entrant send from
/// inside a delivery never waits), and only until the holder has emptied the backlog and given the
/// token back — or ``longestWait`` at most, so two drain loops feeding each other from two threads
/// (the lock-inversion shape) slow down instead of deadlocking.
///
/// Part of a ``DrainLoop``, guarded by its owner's lock; the waiting itself happens after unlocking.
struct SenderThrottle {
    /// Queued events past which a sender from another thread waits.
    static let backlogLimit = 256
    /// The longest a sender waits for the holder.
    static let longestWait = DispatchTimeInterval.milliseconds(20)

    /// The thread draining the backlog; 0 while nobody does (or the holder has not started
    /// draining: then nobody waits, the backlog being short).
    private var drainer: UInt = 0
    private var gate: ThrottleGate?
    /// The sender told to wait (0: none), for owners that wait in another function than the one
    /// that queued: it takes its gate with ``takeGateLocked(clearing:)``.
    private var waiter: UInt = 0
    /// This drain went past the limit; other senders wait until it ends.
    private var throttling = false

    /// Under the lock: the token holder starts draining the backlog.
    @inline(__always)
    mutating func holderDrainsLocked() {
        if drainer == 0 { drainer = currentThreadID() }
    }

    /// Under the lock, after queueing an event behind a backlog of `backlog` events: the gate to wait
    /// at after unlocking, if the backlog is too long and the caller is not the holder.
    mutating func gateLocked(backlog: Int) -> ThrottleGate? {
        // Once past the limit, every other sender waits until this drain ends: were the wait only
        // while the backlog is past the limit, a sender faster than the holder would keep it at the
        // limit, never empty, and the holder would never leave (seen under the thread sanitizer).
        guard backlog > Self.backlogLimit || throttling, drainer != 0, drainer != currentThreadID() else {
            return nil
        }
        throttling = true
        let gate = self.gate ?? ThrottleGate()
        self.gate = gate
        gate.waiting += 1
        return gate
    }

    /// Under the lock, after queueing behind a backlog of `backlog` events: if the caller must wait,
    /// remembers it and raises `flag`, which the owner reads after each critical section.
    mutating func registerLocked(backlog: Int, raising flag: borrowing Atomic<Bool>) {
        guard gateLocked(backlog: backlog) != nil else { return }
        waiter = currentThreadID()
        flag.store(true, ordering: .relaxed)
    }

    /// Under the lock: the gate the calling thread was told to wait at, if any, lowering `flag`. (If
    /// two senders were throttled at once, the later took the place of the earlier, which then goes
    /// on: the limit is only looser.) A gate of a drain that has ended meanwhile is gone: the sender
    /// goes on at once.
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

    /// Under the lock, when the holder gives the token back (or stops): the waiters to wake after
    /// unlocking, with ``ThrottleWakeUp/wake()``.
    @inline(__always)
    mutating func tokenReleasedLocked() -> ThrottleWakeUp? {
        drainer = 0
        throttling = false
        guard let gate else { return nil }
        // Each drain gets a fresh gate: the signals meant for senders whose wait timed out (or that
        // never waited) die with the old one instead of letting later senders through.
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

/// Where senders wait for a drain loop's holder. Made by the first sender that waits.
///
/// Thread-safety: `waiting` is guarded by the owning drain loop's lock; the semaphore is thread-safe.
final class ThrottleGate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    /// Senders counted in and not yet woken. Under the owner's lock.
    var waiting = 0

    /// Waits for ``wakeAll(_:)``, or ``SenderThrottle/longestWait``; whether it was woken in time.
    /// Never under a lock.
    @discardableResult
    func wait() -> Bool {
        semaphore.wait(timeout: .now() + SenderThrottle.longestWait) == .success
    }

    /// Wakes `count` senders. Never under a lock. (A sender that stopped waiting on its own is
    /// woken too late; its signal lets a later sender pass at once, which only loosens the limit.)
    func wake(_ count: Int) {
        for _ in 0..<count { semaphore.signal() }
    }
}
