import Synchronization

/// The claim and throttle of a drain loop: one thread at a time delivers what any thread may queue
/// (DESIGN.md, "The drain loop"). Owners with a plain queue use ``DrainQueue``; the subjects and the
/// serializer keep their queue themselves. Every owner's holder runs ``drain(next:deliver:)``.
///
/// Thread-safety: none; its owner guards it with its lock.
struct DrainLoop {
    /// The claim of an owner that never asks who holds it.
    static let anonymousHolder: UInt = 1

    /// The thread delivering, 0 while nobody is: a thread id for owners that must tell another thread's
    /// delivery from their own re-entrant one (`switchLatest`), else ``anonymousHolder``.
    private(set) var holder: UInt = 0
    private var throttle = SenderThrottle()

    @inline(__always)
    var isClaimed: Bool { holder != 0 }

    /// Whether the caller is now the thread that delivers.
    @inline(__always)
    mutating func claimLocked(by thread: UInt = DrainLoop.anonymousHolder) -> Bool {
        if holder != 0 { return false }
        holder = thread
        return true
    }

    /// By a sender whose claim failed, having queued behind `backlog` items: the gate to wait at after
    /// unlocking, if the backlog is too long and the caller is not the holder.
    @inline(__always)
    mutating func queuedLocked(backlog: Int) -> ThrottleGate? {
        throttle.gateLocked(backlog: backlog)
    }

    /// As ``queuedLocked(backlog:)``, raising `flag`; the sender takes its gate with ``takeGateLocked(clearing:)``.
    mutating func queuedLocked(backlog: Int, raising flag: borrowing Atomic<Bool>) {
        throttle.registerLocked(backlog: backlog, raising: flag)
    }

    /// The gate of a sender told to wait by ``queuedLocked(backlog:raising:)``, lowering `flag`.
    mutating func takeGateLocked(clearing flag: borrowing Atomic<Bool>) -> ThrottleGate? {
        throttle.takeGateLocked(clearing: flag)
    }

    @inline(__always)
    mutating func holderTakesLocked() {
        throttle.holderDrainsLocked()
    }

    /// By the holder, having found nothing left: the claim ends; returns the senders to wake.
    @inline(__always)
    mutating func releaseLocked() -> ThrottleWakeUp? {
        holder = 0
        return throttle.tokenReleasedLocked()
    }

    /// By a holder that took nothing queued (so nobody waits for it): the claim ends. The fast path.
    @inline(__always)
    mutating func releaseUndrainedLocked() {
        holder = 0
    }

    /// The backlog is gone (dropped, or a terminal event ends the sequence) while the claim stays;
    /// returns the senders to wake after unlocking.
    mutating func backlogGoneLocked() -> ThrottleWakeUp? {
        throttle.tokenReleasedLocked()
    }
}

/// A ``DrainLoop`` with its queue. A sender calls ``enqueueLocked(_:gate:)``; if it claimed, it calls
/// ``drain(next:deliver:)`` after unlocking, else it waits at the gate it was given, if any.
///
/// Thread-safety: none; its owner guards it with its lock. Every `…Locked` member of both types runs
/// under the owner's lock.
struct DrainQueue<Item> {
    private var items = Queue<Item>()
    private var loop = DrainLoop()

    var isEmpty: Bool { items.isEmpty }

    var isClaimed: Bool { loop.isClaimed }

    var holder: UInt { loop.holder }

    /// Claims without queueing (a fast path delivering its own event at once); the holder then calls
    /// ``releaseIfEmptyLocked()`` or drains.
    @inline(__always)
    mutating func claimLocked() -> Bool {
        loop.claimLocked()
    }

    /// Queues `item`; whether the caller (as `thread`) now drains. A caller that must wait is given the
    /// gate to wait at after unlocking.
    mutating func enqueueLocked(
        _ item: Item, by thread: UInt = DrainLoop.anonymousHolder, gate: inout ThrottleGate?
    ) -> Bool {
        items.enqueue(item)
        if loop.claimLocked(by: thread) { return true }
        gate = loop.queuedLocked(backlog: items.count)
        return false
    }

    /// By the holder of a fast-path claim: releases it if nothing was queued meanwhile (`true`).
    @inline(__always)
    mutating func releaseIfEmptyLocked() -> Bool {
        guard items.isEmpty else { return false }
        loop.releaseUndrainedLocked()
        return true
    }

    /// By the holder: the next item, or `nil` once none is left, and then the claim has ended and
    /// `wakeUp` holds the senders to wake after unlocking.
    mutating func nextLocked(wakeUp: inout ThrottleWakeUp?) -> Item? {
        if let item = items.dequeue() {
            loop.holderTakesLocked()
            return item
        }
        wakeUp = loop.releaseLocked()
        return nil
    }

    /// By the holder inside one of its own items (a nested drain): the next item; the claim stays with
    /// the outer drain.
    mutating func nextNestedLocked() -> Item? {
        items.dequeue()
    }

    /// By the holder of a stopped sink: takes out what is queued and ends the claim.
    mutating func releaseDroppingLocked(wakeUp: inout ThrottleWakeUp?) -> Queue<Item> {
        wakeUp = loop.releaseLocked()
        return takeItems()
    }

    /// The owner was disposed: takes out what is queued, to release after unlocking, and hands back
    /// the senders waiting for that backlog, to wake after unlocking (the claim stays with its holder).
    mutating func removeAllLocked(wakeUp: inout ThrottleWakeUp?) -> Queue<Item> {
        wakeUp = loop.backlogGoneLocked()
        return takeItems()
    }

    private mutating func takeItems() -> Queue<Item> {
        var taken = Queue<Item>()
        swap(&taken, &items)
        return taken
    }
}

/// The holder's loop outside the lock: takes items with `next` (one critical section each) and
/// delivers them with `deliver` until none is left, then wakes the senders that waited.
@inline(__always)
func drain<Item>(next: (inout ThrottleWakeUp?) -> Item?, deliver: (Item) -> Void) {
    while true {
        var wakeUp: ThrottleWakeUp?
        guard let item = next(&wakeUp) else {
            wakeUp?.wake()
            return
        }
        deliver(item)
    }
}
