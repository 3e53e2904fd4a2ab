import Synchronization

/// An event waiting for delivery by a ``SerializingOperatorSink``.
enum SerializedEvent<Element> {
    case next(Element)
    case terminate(Termination)
}

/// The base of the operators whose downstream calls come from more than one thread: `merge`/`flatMap`,
/// `switchLatest`, the two-source operators, and those with a timer (`debounce`, `throttle`,
/// `take(for:)`). Under ``lock`` the subclass updates its state and queues with ``enqueueLocked(_:)``;
/// the claim's holder calls ``drain()`` after unlocking (DESIGN.md, "The drain loop"). The claim is the
/// delivering thread's id, so that `switchLatest` can wait for another thread's delivery but not for
/// its own (``supersedeLocked()``). The queue is made on first use (DESIGN.md, "The hot path").
///
/// Thread-safety: ``lock`` guards every `@exclusivity(unchecked)` property and the subclass's state;
/// `throttled` is atomic; delivery belongs to the claim's holder alone.
@usableFromInline
class SerializingOperatorSink<Input, Output>: OperatorSink<Input, Output>, @unchecked Sendable {
    /// Whether a sender must wait at the drain loop's gate; read after every critical section, so an
    /// atomic. Declared before the lock (DESIGN.md, "Concurrency model").
    private let throttled = Atomic<Bool>(false)
    let lock = Mutex<Void>(())
    @exclusivity(unchecked) var outbox: Outbox<Output>?
    @exclusivity(unchecked) var drainLoop = DrainLoop()
    @exclusivity(unchecked) var terminationQueued = false
    /// Senders waiting for the holder to finish the delivery in progress (``supersedeLocked()``).
    @exclusivity(unchecked) var deliveryWaiters: ThrottleGate?
    /// What the superseding thread still has to do after unlocking (``finishSuperseding()``).
    @exclusivity(unchecked) var supersession: Supersession?

    @exclusivity(unchecked) final var isSourceGone = false
    /// Whether the claim's holder releases the sink once it has delivered what is queued.
    @exclusivity(unchecked) var letGoWhenIdle = false
    @exclusivity(unchecked) var hasLetGoOfDownstream = false

    /// The source let go: releases the sink now if `nothingLeft` (asked under the lock), else once what
    /// it holds is delivered.
    final func recordSourceGone(lettingGoIf nothingLeft: () -> Bool) {
        if locked({ () -> Bool in
            isSourceGone = true
            return nothingLeft() && letGoNowOrWhenIdleLocked()
        }) {
            letGoOfDownstreamOnce()
        }
    }

    /// Once the source is gone and the subclass holds nothing more: whether the caller releases the sink
    /// now; if another thread holds the claim, that thread does when it gives the claim back.
    final func letGoNowOrWhenIdleLocked() -> Bool {
        guard acceptsEventsLocked else { return false }
        if drainLoop.isClaimed {
            letGoWhenIdle = true
            return false
        }
        return true
    }

    /// After queuing what a sink held (debounce's element, throttle's): if the source is gone, the
    /// claim's holder releases the sink once that is delivered.
    final func letGoAfterQueuedLocked() {
        if isSourceGone { _ = letGoNowOrWhenIdleLocked() }
    }

    private func takeLetGoWhenIdleLocked() -> Bool {
        guard letGoWhenIdle else { return false }
        letGoWhenIdle = false
        return acceptsEventsLocked
    }

    /// Once every source has let go and nothing is left to deliver: tells downstream its source is gone
    /// and disposes the sink, breaking its cycles with its inner subscriptions (``AnySink/sourceGone()``).
    /// Call after unlocking.
    @inline(never)
    final func letGoOfDownstreamOnce() {
        let first: Bool = lock.locked {
            defer { hasLetGoOfDownstream = true }
            return !hasLetGoOfDownstream
        }
        guard first else { return }
        letGoOfDownstream()
    }

    /// Runs `body` under ``lock``, then waits if it queued behind a long backlog another thread is
    /// draining (``SenderThrottle``).
    @inline(__always)
    final func locked<Result>(_ body: () -> Result) -> Result {
        let result = lock.locked(body)
        if throttled.load(ordering: .relaxed) { waitIfThrottled() }
        return result
    }

    @inline(never)
    private func waitIfThrottled() {
        lock.locked { drainLoop.takeGateLocked(clearing: throttled) }?.wait()
    }

    /// Not stopped, and no terminal event queued. Under ``lock``.
    @inline(__always)
    final var acceptsEventsLocked: Bool {
        isForwarding && !terminationQueued
    }

    /// Queues `event` (dropped after a queued terminal event or once stopped). Returns whether the caller
    /// claimed the loop and must call ``drain()`` after unlocking.
    final func enqueueLocked(_ event: SerializedEvent<Output>) -> Bool {
        guard acceptsEventsLocked else { return false }
        if case .terminate = event { terminationQueued = true }
        queueLocked(event)
        return drainLoop.claimLocked(by: currentThreadID())
    }

    @inline(never)
    private func queueLocked(_ event: SerializedEvent<Output>) {
        if let outbox {
            outbox.events.enqueue(event)
            if drainLoop.isClaimed { drainLoop.queuedLocked(backlog: outbox.events.count, raising: throttled) }
        } else {
            let created = Outbox<Output>()
            created.events.enqueue(event)
            outbox = created
        }
    }

    /// The fast path: claims the loop for `element` (`true`: deliver it with ``deliverClaimed(_:)`` after
    /// unlocking), else queues it behind the holder or drops it. The queuing branch is out of line
    /// (DESIGN.md, "The hot path").
    @inline(__always)
    final func claimOrQueueLocked(_ element: Output, by thread: UInt) -> Bool {
        guard acceptsEventsLocked else { return false }
        guard drainLoop.claimLocked(by: thread) else {
            queueContendedLocked(element)
            return false
        }
        return true
    }

    @inline(never)
    private func queueContendedLocked(_ element: Output) {
        queueLocked(.next(element))
    }

    /// Delivers a claimed element, then what was queued meanwhile, then gives the claim back.
    @inline(__always)
    final func deliverClaimed(_ element: Output) {
        forward(element)
        didForwardElement()
        var releaseNow = false
        if !lock.locked({ releaseTokenIfIdleLocked(&releaseNow) }) { drain() }
        if releaseNow { letGoOfDownstreamOnce() }
    }

    /// Sends `element` in order: at once if nobody is delivering, else by the claim's holder.
    final func sendNext(_ element: Output) {
        let thread = currentThreadID()
        if locked({ claimOrQueueLocked(element, by: thread) }) { deliverClaimed(element) }
    }

    /// Sends the terminal event after everything queued; nothing is accepted after it.
    final func sendTermination(_ termination: Termination) {
        if locked({ claimTerminationLocked(termination) }) { deliverClaimedTermination(termination) }
    }

    /// ``claimOrQueueLocked(_:by:)`` for the terminal event, for a subclass that decides to terminate in
    /// the critical section where it checks its state.
    final func claimTerminationLocked(_ termination: Termination) -> Bool {
        guard acceptsEventsLocked else { return false }
        terminationQueued = true
        guard drainLoop.claimLocked(by: currentThreadID()) else {
            queueTerminationLocked(termination)
            return false
        }
        return true
    }

    /// Delivers a terminal event claimed with ``claimTerminationLocked(_:)``. Never under ``lock``.
    final func deliverClaimedTermination(_ termination: Termination) {
        forwardTermination(termination)
        wakeDeliveryWaiters()
    }

    @inline(never)
    private func queueTerminationLocked(_ termination: Termination) {
        queueLocked(.terminate(termination))
    }

    /// Gives the claim back unless something is queued; wakes the senders waiting for a delivery to end.
    @inline(__always)
    private func releaseTokenIfIdleLocked(_ releaseNow: inout Bool) -> Bool {
        let released = outbox?.isEmpty ?? true || !isForwarding
        if released {
            // The holder delivered only its own event: nobody can be waiting for a backlog.
            drainLoop.releaseUndrainedLocked()
            if letGoWhenIdle { releaseNow = takeLetGoWhenIdleLocked() }
        }
        if deliveryWaiters != nil { wakeDeliveryWaitersLocked(released: released) }
        return released
    }

    /// The holder's loop: delivers the queue in order, then gives the claim back. Never under ``lock``.
    final func drain() {
        var ended = false
        RxSwift.drain(
            // `dequeue` wakes the throttled senders itself, before letting go of downstream.
            next: { _ in ended ? nil : dequeue() },
            deliver: { event in
                switch event {
                case .next(let element):
                    forward(element)
                    didForwardElement()
                case .terminate(let termination):
                    // The claim is kept: nothing may follow a terminal event. Senders waiting for the
                    // backlog to shrink go on (what they queue is dropped).
                    lock.locked { drainLoop.backlogGoneLocked() }?.wake()
                    forwardTermination(termination)
                    wakeDeliveryWaiters()
                    ended = true
                }
            })
    }

    private func dequeue() -> SerializedEvent<Output>? {
        var wakeUp: ThrottleWakeUp?
        var releaseNow = false
        let event = lock.locked { () -> SerializedEvent<Output>? in
            if isForwarding, let event = outbox?.events.dequeue() {
                drainLoop.holderTakesLocked()
                if deliveryWaiters != nil { wakeDeliveryWaitersLocked(released: false) }
                return event
            }
            wakeUp = drainLoop.releaseLocked()
            if letGoWhenIdle { releaseNow = takeLetGoWhenIdleLocked() }
            if deliveryWaiters != nil { wakeDeliveryWaitersLocked(released: true) }
            return nil
        }
        wakeUp?.wake()
        if releaseNow { letGoOfDownstreamOnce() }
        return event
    }

    /// Called by the token holder after each element it delivered, outside the lock.
    func didForwardElement() {}

    /// Releases what is still queued. Subclasses that own timers override it and call `super`.
    override func disposeResources() {
        // Released after unlocking (deinitializers may run code) through an `AnyObject` local: returning
        // the generic outbox would look up its metadata (DESIGN.md, "The hot path").
        var dropped: AnyObject?
        var wakeUp: ThrottleWakeUp?
        lock.locked {
            dropped = outbox
            outbox = nil
            wakeUp = drainLoop.backlogGoneLocked()
        }
        if dropped != nil { dropped = nil }
        wakeUp?.wake()
    }
}

/// The events a ``SerializingOperatorSink`` queued for its token holder; made on first use.
final class Outbox<Output> {
    @exclusivity(unchecked) var events = Queue<SerializedEvent<Output>>()

    var isEmpty: Bool { events.isEmpty }
}

#if DEBUG
    /// What tests observe of the serializer without timing it.
    enum SerializingTestHooks {
        /// How many times a superseding event (a switch) had to wait for another thread's delivery.
        static let supersedingWaits = Atomic<Int>(0)
        /// How many of those waits gave up after ``SenderThrottle/longestWait``.
        static let supersedingWaitsGivenUp = Atomic<Int>(0)
    }
#endif
