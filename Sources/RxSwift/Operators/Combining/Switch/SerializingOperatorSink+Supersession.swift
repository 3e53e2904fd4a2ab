import Synchronization

/// Superseding what a ``SerializingOperatorSink`` has queued: what `switchLatest` (and so
/// `flatMapLatest`) does when it replaces its inner sequence, so that nothing the replaced sequence
/// sent is delivered after the switch.
extension SerializingOperatorSink {
    /// Under ``lock``, for an operator that has just made everything it sent so far obsolete
    /// (`switchLatest` replacing its inner sequence): drops the queued elements and, if another
    /// thread is delivering at this moment, registers the caller to wait until that delivery has
    /// returned. So once the caller has acted on the result with ``finishSuperseding()`` after
    /// unlocking, nothing accepted before this critical section is delivered any more.
    ///
    /// A queued terminal event is not dropped (nothing queued is, then): the sequence is ending, and
    /// the caller waits until the terminal event has been delivered. The caller does not wait for
    /// itself (a re-entrant call from inside a delivery), nor after the sink was disposed (the
    /// disposal contract applies). The wait is bounded like the sender throttle's
    /// (``SenderThrottle/longestWait``), so a delivery that waits for the caller slows it down
    /// instead of deadlocking it.
    ///
    /// - Returns: Whether the caller must call ``finishSuperseding()`` after unlocking.
    @inline(__always)
    final func supersedeLocked() -> Bool {
        // Nobody emitting and nothing ever queued: the common case, nothing to do.
        guard drainLoop.isClaimed || outbox != nil else { return false }
        return supersedeContendedLocked()
    }

    @inline(never)
    func supersedeContendedLocked() -> Bool {
        var dropped: AnyObject?
        var wakeUp: ThrottleWakeUp?
        var gate: ThrottleGate?
        if !terminationQueued, let queued = outbox, !queued.isEmpty {
            dropped = queued
            outbox = nil
            // The backlog is gone: senders throttled behind it go on.
            wakeUp = drainLoop.backlogGoneLocked()
        }
        if drainLoop.isClaimed, drainLoop.holder != currentThreadID(), !isDisposed {
            #if DEBUG
                SerializingTestHooks.supersedingWaits.wrappingAdd(1, ordering: .relaxed)
            #endif
            let waiters = deliveryWaiters ?? ThrottleGate()
            waiters.waiting += 1
            deliveryWaiters = waiters
            gate = waiters
        }
        guard dropped != nil || gate != nil else { return false }
        // Kept for the caller's next critical section (only one thread supersedes at a time).
        supersession = Supersession(dropped: dropped, wakeUp: wakeUp, gate: gate)
        return true
    }

    /// Acts on what ``supersedeLocked()`` decided: releases the dropped elements, lets throttled
    /// senders go on, and waits for the delivery in progress. Never under ``lock``.
    @inline(never)
    final func finishSuperseding() {
        let taken = lock.locked { () -> Supersession? in
            defer { supersession = nil }
            return supersession
        }
        guard let taken else { return }
        taken.wakeUp?.wake()
        guard let gate = taken.gate else { return }
        let wokenInTime = gate.wait()
        #if DEBUG
            if !wokenInTime { SerializingTestHooks.supersedingWaitsGivenUp.wrappingAdd(1, ordering: .relaxed) }
        #else
            _ = wokenInTime
        #endif
    }

    /// Under ``lock``, when the holder has finished delivering an event (and has given the token back
    /// if `released`): wakes the senders waiting for that delivery, unless a terminal event is still
    /// to be delivered (they wait for it too). They are signalled under the lock — a semaphore
    /// signal neither blocks nor calls out — so that the uncontended path carries no reference to
    /// release.
    @inline(never)
    func wakeDeliveryWaitersLocked(released: Bool) {
        guard released || !terminationQueued, let waiters = deliveryWaiters else { return }
        deliveryWaiters = nil
        waiters.wake(waiters.waiting)
    }

    /// After a terminal event was delivered: the senders waiting for it go on.
    func wakeDeliveryWaiters() {
        lock.locked { wakeDeliveryWaitersLocked(released: true) }
    }
}

/// What ``SerializingOperatorSink/supersedeLocked()`` decided under the lock, for the caller to act
/// on after unlocking; made only when there is something to do.
final class Supersession {
    /// The dropped queue, released with this object (outside the lock).
    let dropped: AnyObject?
    /// Senders throttled behind the dropped backlog.
    let wakeUp: ThrottleWakeUp?
    /// Where to wait for the delivery in progress on another thread.
    let gate: ThrottleGate?

    init(dropped: AnyObject?, wakeUp: ThrottleWakeUp?, gate: ThrottleGate?) {
        self.dropped = dropped
        self.wakeUp = wakeUp
        self.gate = gate
    }
}
