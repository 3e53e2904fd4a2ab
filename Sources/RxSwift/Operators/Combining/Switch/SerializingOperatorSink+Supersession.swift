import Synchronization

/// Superseding what a ``SerializingOperatorSink`` has queued, for `switchLatest`: nothing the
/// replaced sequence sent is delivered after the switch.
extension SerializingOperatorSink {
    /// Drops the queued elements and, if another thread is delivering, registers the caller to wait for
    /// that delivery (bounded by ``SenderThrottle/longestWait``, so two waiting on each other slow down
    /// instead of deadlocking). A queued terminal event is kept and waited for. The caller never waits
    /// for itself (a re-entrant call), nor after disposal.
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
        // Kept for the caller's next critical section (one thread supersedes at a time).
        supersession = Supersession(dropped: dropped, wakeUp: wakeUp, gate: gate)
        return true
    }

    /// Acts on ``supersedeLocked()``: releases the dropped elements, wakes throttled senders, waits for
    /// the delivery in progress. Never under ``lock``.
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

    /// When the holder finished a delivery (and gave the claim back if `released`): wakes the senders
    /// waiting for it, unless a terminal event is still to come. Signalled under the lock (a semaphore
    /// signal neither blocks nor calls out).
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

/// What ``SerializingOperatorSink/supersedeLocked()`` decided, for the caller to act on after
/// unlocking; made only when there is something to do.
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
