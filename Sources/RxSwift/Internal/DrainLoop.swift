import Synchronization

/// The state of a drain loop, the one way this library serializes senders (DESIGN.md, "The drain
/// loop"): one thread at a time delivers what any thread may queue.
///
/// A sender queues its work under the owner's lock and claims; the one whose claim succeeds
/// delivers, outside the lock, what it queued and everything queued meanwhile, and releases the claim
/// under the lock when it finds nothing left. A sender whose claim fails (another thread, or itself
/// re-entrantly, is delivering) returns at once, its work delivered before the claim is released, in
/// order — unless the backlog is long and it is another thread: then it waits for the holder after
/// unlocking (``SenderThrottle``), so a sender faster than the holder cannot keep it delivering
/// forever.
///
/// Owners with a plain queue use ``DrainQueue``, this state with the queue. The subjects (whose
/// backlog is boxed, so that their hot path never names its generic type) and the serializer of the
/// multi-source operators (whose queue is made on first use) keep their queue themselves and use this
/// directly. Every owner's holder runs ``drain(next:deliver:)``.
///
/// Thread-safety: none; its owner guards it with its lock.
struct DrainLoop {
    /// The claim of an owner that never asks who holds it.
    static let anonymousHolder: UInt = 1

    /// The thread delivering, 0 while nobody is: a thread id for owners that must tell a delivery
    /// on another thread from their own re-entrant one (`switchLatest`), else ``anonymousHolder``.
    private(set) var holder: UInt = 0
    private var throttle = SenderThrottle()

    /// Whether a thread is delivering.
    @inline(__always)
    var isClaimed: Bool { holder != 0 }

    /// Under the owner's lock: whether the caller is now the thread that delivers.
    @inline(__always)
    mutating func claimLocked(by thread: UInt = DrainLoop.anonymousHolder) -> Bool {
        if holder != 0 { return false }
        holder = thread
        return true
    }

    /// Under the owner's lock, by a sender whose claim failed, having queued behind `backlog` items:
    /// the gate to wait at after unlocking, if the backlog is too long and the caller is not the
    /// holder.
    @inline(__always)
    mutating func queuedLocked(backlog: Int) -> ThrottleGate? {
        throttle.gateLocked(backlog: backlog)
    }

    /// As ``queuedLocked(backlog:)``, for owners that wait in another function than the one that
    /// queued: raises `flag`; the sender takes its gate with ``takeGateLocked(clearing:)``.
    mutating func queuedLocked(backlog: Int, raising flag: borrowing Atomic<Bool>) {
        throttle.registerLocked(backlog: backlog, raising: flag)
    }

    /// Under the owner's lock: the gate a sender told to wait by ``queuedLocked(backlog:raising:)``
    /// waits at, lowering `flag`.
    mutating func takeGateLocked(clearing flag: borrowing Atomic<Bool>) -> ThrottleGate? {
        throttle.takeGateLocked(clearing: flag)
    }

    /// Under the owner's lock, by the holder: it takes a queued item.
    @inline(__always)
    mutating func holderTakesLocked() {
        throttle.holderDrainsLocked()
    }

    /// Under the owner's lock, by the holder, having found nothing left: the claim ends. Returns
    /// the senders to wake after unlocking.
    @inline(__always)
    mutating func releaseLocked() -> ThrottleWakeUp? {
        holder = 0
        return throttle.tokenReleasedLocked()
    }

    /// Under the owner's lock, by a holder that delivered only what it claimed with (it took nothing
    /// queued, so no sender can be waiting for it): the claim ends. The subjects' and the
    /// serializer's fast path.
    @inline(__always)
    mutating func releaseUndrainedLocked() {
        holder = 0
    }

    /// Under the owner's lock: the backlog is gone (dropped, or a terminal event ends the sequence)
    /// while the claim stays; the senders waiting for it, to wake after unlocking.
    mutating func backlogGoneLocked() -> ThrottleWakeUp? {
        throttle.tokenReleasedLocked()
    }
}

/// A ``DrainLoop`` with its queue, for owners whose queue needs nothing else (`combineLatest`/`zip`,
/// `buffer`, `window`, `refCount`, `multicast`'s reference count).
///
/// A sender calls ``enqueueLocked(_:gate:)``; if it claimed, it calls ``drain(next:deliver:)`` after
/// unlocking, otherwise it waits at the gate it was given, if any.
///
/// Thread-safety: none; its owner guards it with its lock.
struct DrainQueue<Item> {
    private var items = Queue<Item>()
    private var loop = DrainLoop()

    var isEmpty: Bool { items.isEmpty }

    /// Whether a thread is delivering.
    var isClaimed: Bool { loop.isClaimed }

    /// The thread delivering, as it claimed (``DrainLoop/holder``).
    var holder: UInt { loop.holder }

    /// Under the owner's lock: claims without queueing (an owner's fast path, which delivers its own
    /// event at once); the holder then calls ``releaseIfEmptyLocked()`` or drains.
    @inline(__always)
    mutating func claimLocked() -> Bool {
        loop.claimLocked()
    }

    /// Under the owner's lock: queues `item`; whether the caller is now the thread that drains
    /// (claiming as `thread`). A caller that is not and must wait is given the gate to wait at after
    /// unlocking.
    mutating func enqueueLocked(
        _ item: Item, by thread: UInt = DrainLoop.anonymousHolder, gate: inout ThrottleGate?
    ) -> Bool {
        items.enqueue(item)
        if loop.claimLocked(by: thread) { return true }
        gate = loop.queuedLocked(backlog: items.count)
        return false
    }

    /// Under the owner's lock, by the holder of a fast-path claim: releases it if nothing was queued
    /// meanwhile (returns `true`); otherwise the holder drains.
    @inline(__always)
    mutating func releaseIfEmptyLocked() -> Bool {
        guard items.isEmpty else { return false }
        loop.releaseUndrainedLocked()
        return true
    }

    /// Under the owner's lock, by the draining thread: the next item, or `nil` once none is left, and
    /// then the claim has ended and `wakeUp` holds the senders to wake after unlocking.
    mutating func nextLocked(wakeUp: inout ThrottleWakeUp?) -> Item? {
        if let item = items.dequeue() {
            loop.holderTakesLocked()
            return item
        }
        wakeUp = loop.releaseLocked()
        return nil
    }

    /// Under the owner's lock, by the draining thread inside one of its own items (a nested drain):
    /// the next item, or `nil` once none is left; the claim stays with the outer drain.
    mutating func nextNestedLocked() -> Item? {
        items.dequeue()
    }

    /// Under the owner's lock, by the holder of a sink that stopped: takes out what is queued (for
    /// the caller to release after unlocking) and ends the claim; `wakeUp` as in ``nextLocked(wakeUp:)``.
    mutating func releaseDroppingLocked(wakeUp: inout ThrottleWakeUp?) -> Queue<Item> {
        wakeUp = loop.releaseLocked()
        return removeAllLocked()
    }

    /// Takes out what is queued (the owner was disposed), for the caller to release after unlocking.
    mutating func removeAllLocked() -> Queue<Item> {
        var taken = Queue<Item>()
        swap(&taken, &items)
        return taken
    }
}

/// The holder's side of a drain loop, outside the lock: takes items with `next` (one critical
/// section each, ``DrainQueue/nextLocked(wakeUp:)`` in it) and delivers them with `deliver` until
/// none is left, then wakes the senders that waited for it.
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
