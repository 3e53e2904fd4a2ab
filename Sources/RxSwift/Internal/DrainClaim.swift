/// The claim of a drain loop: one thread at a time delivers what any thread may queue (the Contracts article).
///
/// A sender queues its work under the owner's lock and then claims; the one whose claim succeeds
/// delivers, outside the lock, what it queued and everything queued meanwhile, and releases the
/// claim under the lock when it finds nothing left. A sender whose claim fails (another thread, or
/// itself re-entrantly, is delivering) returns at once: its work is delivered before the claim is
/// released, in order. Owners whose senders can outrun the delivering thread add a ``SenderThrottle``
/// (subjects, `combineLatest`/`zip`): it makes a sender wait once the backlog is long. Those whose
/// queue is bounded by what they are (a timer and one source for `buffer` and `window`, connects
/// and disconnects for `refCount`) need none.
///
/// The serializer of the operators that merge sources (`SerializingOperatorSink`) claims with the
/// delivering thread's identity instead, because `switchLatest` must tell a delivery in progress on
/// another thread, which it waits for, from its own, re-entrant one, which it must not.
///
/// Thread-safety: none; its owner guards it with its lock.
struct DrainClaim {
    /// Whether a thread is delivering.
    private(set) var isClaimed = false

    /// Under the owner's lock: whether the caller is now the thread that delivers.
    @inline(__always)
    mutating func claimLocked() -> Bool {
        if isClaimed { return false }
        isClaimed = true
        return true
    }

    /// Under the owner's lock, by the delivering thread, having found nothing left: the claim ends.
    @inline(__always)
    mutating func releaseLocked() {
        isClaimed = false
    }
}

/// A queue that one thread at a time drains (the owners whose queue needs nothing else: `buffer`,
/// `window`, `refCount`): the queue and its ``DrainClaim`` together.
///
/// Thread-safety: none; its owner guards it with its lock.
struct DrainQueue<Item> {
    private var items = Queue<Item>()
    private var claim = DrainClaim()

    /// Under the owner's lock: queues `item`; whether the caller is now the thread that drains.
    mutating func enqueueLocked(_ item: Item) -> Bool {
        items.enqueue(item)
        return claim.claimLocked()
    }

    /// Under the owner's lock, by the draining thread inside one of its own items (a nested drain):
    /// the next item, or `nil` once none is left; the claim stays with the outer drain.
    mutating func nextNestedLocked() -> Item? {
        items.dequeue()
    }

    /// Under the owner's lock, by the draining thread: the next item, or `nil` once none is left,
    /// and then the claim has ended.
    mutating func nextLocked() -> Item? {
        if let item = items.dequeue() { return item }
        claim.releaseLocked()
        return nil
    }

    /// Takes out what is queued (the owner was disposed), for the caller to release after unlocking.
    mutating func removeAllLocked() -> Queue<Item> {
        var taken = Queue<Item>()
        swap(&taken, &items)
        return taken
    }
}
