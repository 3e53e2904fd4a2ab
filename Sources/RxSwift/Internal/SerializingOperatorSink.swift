import Synchronization

/// An event waiting for delivery by a ``SerializingOperatorSink``.
enum SerializedEvent<Element> {
    case next(Element)
    case terminate(Termination)
}

/// The base of the operators whose downstream calls come from more than one thread: those that
/// merge sources (`merge`/`flatMap`, `switchLatest`/`flatMapLatest`, the two-source operators such as
/// `withLatestFrom` and `takeUntil`) and those with a timer on a scheduler besides their source
/// (`debounce`, `throttle`, `take(for:scheduler:)`).
///
/// It serializes them with a drain loop (``DrainLoop``): under ``lock`` the subclass updates its
/// state and queues what to send with ``enqueueLocked(_:)``; the thread that claims the loop calls
/// ``drain()`` after unlocking, which delivers everything queued (including what other threads queue
/// meanwhile) in the order it was decided. No lock is held while downstream runs. An event sent
/// re-entrantly from inside a delivery is delivered after the current one, not depth-first. The
/// claim is the delivering thread's id, so that `switchLatest` can wait for a delivery on another
/// thread but not for its own (``supersedeLocked()``).
///
/// The queue is made on first use: most sinks never see two senders at once, and an empty generic
/// queue made per subscription costs run-time metadata lookups (DESIGN.md, "The hot path").
///
/// Thread-safety: `outbox`, `drainLoop`, `terminationQueued` and `deliveryWaiters` are guarded by
/// ``lock``, as is the subclass's own state; delivery belongs to the loop's holder alone.
@usableFromInline
class SerializingOperatorSink<Input, Output>: OperatorSink<Input, Output>, @unchecked Sendable {
    /// Whether a sender was told to wait at ``gateToWaitAt`` and has not yet taken it. Read after
    /// every critical section, so a relaxed atomic, not a locked field. (Declared before the lock:
    /// the thread sanitizer misplaces the zero-sized `Mutex<Void>` onto the next stored property.)
    private let throttled = Atomic<Bool>(false)
    /// Guards the subclass's state and the outbox; taken through ``locked(_:)``.
    let lock = Mutex<Void>(())
    @exclusivity(unchecked) var outbox: Outbox<Output>?
    /// The emitting token, claimed with the delivering thread's id so that a sender can tell a
    /// delivery in progress on another thread from its own, re-entrant one.
    @exclusivity(unchecked) var drainLoop = DrainLoop()
    @exclusivity(unchecked) var terminationQueued = false
    /// Senders waiting for the holder to finish the delivery in progress (``supersedeLocked()``).
    @exclusivity(unchecked) var deliveryWaiters: ThrottleGate?
    /// What the superseding thread still has to do after unlocking (``finishSuperseding()``).
    @exclusivity(unchecked) var supersession: Supersession?

    /// Whether the source let go of this sink (``AnySink/sourceGone()``); under the lock.
    @exclusivity(unchecked) final var isSourceGone = false
    /// Whether the token holder releases the sink once it has delivered what is queued (the source
    /// let go while another thread was delivering); under the lock.
    @exclusivity(unchecked) var letGoWhenIdle = false
    /// Whether ``letGoOfDownstreamOnce()`` has run; under the lock.
    @exclusivity(unchecked) var hasLetGoOfDownstream = false

    /// The source let go of this sink: records it, and releases the sink at once if `nothingLeft`
    /// (asked under the lock, after recording) says nothing more can be delivered. Sinks that still
    /// hold something release themselves once it is delivered.
    final func recordSourceGone(lettingGoIf nothingLeft: () -> Bool) {
        if locked({ () -> Bool in
            isSourceGone = true
            return nothingLeft() && letGoNowOrWhenIdleLocked()
        }) {
            letGoOfDownstreamOnce()
        }
    }

    /// Under ``lock``, once the source is gone and the subclass holds nothing more: whether the caller
    /// releases the sink now. If another thread holds the emitting token, what it has queued is still
    /// to be delivered: it releases the sink once it gives the token back.
    final func letGoNowOrWhenIdleLocked() -> Bool {
        guard acceptsEventsLocked else { return false }
        if drainLoop.isClaimed {
            letGoWhenIdle = true
            return false
        }
        return true
    }

    /// Under ``lock``, after queuing what a sink held (debounce's waiting element, throttle's kept
    /// one): if the source has gone, whoever holds the token (this thread, if the queuing made it
    /// the holder) releases the sink once it has delivered what is queued.
    final func letGoAfterQueuedLocked() {
        if isSourceGone { _ = letGoNowOrWhenIdleLocked() }
    }

    /// Under ``lock``, when the holder gives the token back: whether it must release the sink now.
    private func takeLetGoWhenIdleLocked() -> Bool {
        guard letGoWhenIdle else { return false }
        letGoWhenIdle = false
        return acceptsEventsLocked
    }

    /// Every source of this sink has let go of it or ended without ending it, and it has nothing
    /// left to deliver (the subclass decides, under the lock): downstream hears that its source is
    /// gone, and the sink is disposed, which releases its inner subscriptions and the cycles between
    /// them and this sink (``AnySink/sourceGone()``). Nothing is delivered. Call after unlocking.
    @inline(never)
    final func letGoOfDownstreamOnce() {
        let first: Bool = lock.locked {
            defer { hasLetGoOfDownstream = true }
            return !hasLetGoOfDownstream
        }
        guard first else { return }
        letGoOfDownstream()
    }

    /// Runs `body` under the sink's lock (which guards the subclass's state too). If `body` queued an
    /// event behind a long backlog that another thread is draining, waits for that thread after
    /// unlocking (``SenderThrottle``).
    @inline(__always)
    final func locked<Result>(_ body: () -> Result) -> Result {
        let result = lock.locked(body)
        if throttled.load(ordering: .relaxed) { waitIfThrottled() }
        return result
    }

    /// Waits at the gate if one was meant for this thread.
    @inline(never)
    private func waitIfThrottled() {
        lock.locked { drainLoop.takeGateLocked(clearing: throttled) }?.wait()
    }

    /// Whether the sink still accepts events to send: not stopped, and no terminal event queued.
    /// Call under ``lock``.
    @inline(__always)
    final var acceptsEventsLocked: Bool {
        isForwarding && !terminationQueued
    }

    /// Queues `event` for delivery; call under ``lock``. Events after a queued terminal event, or
    /// after the sink stopped, are dropped.
    ///
    /// - Returns: Whether the caller took the emitting token; if so it must call ``drain()`` after
    ///   unlocking.
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

    /// Under ``lock``: takes the emitting token for `element` (returns `true`: the caller delivers it
    /// with ``deliverClaimed(_:)`` after unlocking), or queues it behind the token holder's work, or
    /// drops it when the sink stopped (both return `false`).
    ///
    /// The fast path of the multi-source operators: when nobody else is emitting, an element goes
    /// straight downstream without passing through the queue. The queueing branch is out of line,
    /// so the fast path names no generic value type (no metadata lookup per element).
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

    /// Delivers an element claimed with ``claimOrQueueLocked(_:)``, then whatever was queued
    /// meanwhile, then gives the token back. Never under ``lock``.
    @inline(__always)
    final func deliverClaimed(_ element: Output) {
        forward(element)
        didForwardElement()
        var releaseNow = false
        if !lock.locked({ releaseTokenIfIdleLocked(&releaseNow) }) { drain() }
        if releaseNow { letGoOfDownstreamOnce() }
    }

    /// Sends `element` downstream in order with everything else this sink sends: on this thread at
    /// once if nobody is emitting, otherwise by the thread that is.
    final func sendNext(_ element: Output) {
        let thread = currentThreadID()
        if locked({ claimOrQueueLocked(element, by: thread) }) { deliverClaimed(element) }
    }

    /// Sends the terminal event after everything already queued; nothing is accepted after it. When
    /// nobody is emitting it is delivered at once (the token is kept: nothing may follow it).
    final func sendTermination(_ termination: Termination) {
        if locked({ claimTerminationLocked(termination) }) { deliverClaimedTermination(termination) }
    }

    /// Under ``lock``: accepts the terminal event (nothing is accepted after it) and takes the emitting
    /// token for it (returns `true`: the caller delivers it with ``deliverClaimedTermination(_:)``
    /// after unlocking), or queues it behind the token holder's work, or drops it when the sink no
    /// longer accepts events (both return `false`). For a subclass that decides to terminate in the
    /// same critical section as it checks its state.
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

    /// Gives the token back if nothing is queued (or the sink stopped); otherwise keeps it for a drain.
    /// Either way the holder has finished a delivery: wakes the senders waiting for that.
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

    /// Delivers the queued events in order until none is left, then gives the token back. Only the
    /// token holder calls it, never under ``lock``.
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

    /// Releases what is still queued (after unlocking: deinitializers may run code). Subclasses that
    /// own timers override it and call `super`.
    override func disposeResources() {
        // A local captured by the critical section, released at the end of this scope (after
        // unlocking: deinitializers may run code). Neither `locked` returning the generic outbox nor
        // `withExtendedLifetime` of it: each would look up its metadata on every disposal.
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
        /// How many of those waits gave up after ``SenderThrottle/longestWait``: only then may an
        /// event of a replaced sequence reach the observer after the switch returned.
        static let supersedingWaitsGivenUp = Atomic<Int>(0)
    }
#endif
