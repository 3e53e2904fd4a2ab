import Synchronization

/// An event waiting for delivery by a ``SerializingOperatorSink``.
enum SerializedEvent<Element> {
    case next(Element)
    case terminate(Termination)
}

/// The base of an operator whose downstream calls come from two threads: upstream's, and a timer's on
/// a scheduler (`debounce`, `throttle`, `take(for:scheduler:)`).
///
/// It serializes them with an emitting token, a drain loop (DESIGN §4): under ``lock`` the subclass
/// updates its state and queues what to send with ``enqueueLocked(_:)``; the thread that finds nobody
/// emitting takes the token and, after unlocking, calls ``drain()``, which delivers everything queued
/// (including what other threads queue meanwhile) in the order it was decided. Nothing blocks and no
/// lock is held while downstream runs. An event sent re-entrantly from inside a delivery is delivered
/// after the current one, not depth-first.
///
/// The queue is made on first use: most sinks never see two senders at once, and an empty generic
/// queue made in `init` (and emptied in `dispose`) costs several run-time metadata lookups per
/// subscription, where a `nil` check costs none.
///
/// Thread-safety: `outbox`, `emitting` and `terminationQueued` are guarded by ``lock``, as is the
/// subclass's own state; delivery belongs to the token holder alone.
@usableFromInline
class SerializingOperatorSink<Input, Output>: OperatorSink<Input, Output>, @unchecked Sendable {
    /// Whether a sender was told to wait at ``gateToWaitAt`` and has not yet taken it. Read after
    /// every critical section, so a relaxed atomic, not a locked field. (Declared before the lock:
    /// the thread sanitizer misplaces the zero-sized `Mutex<Void>` onto the next stored property.)
    private let throttled = Atomic<Bool>(false)
    /// Guards the subclass's state and the outbox; taken through ``locked(_:)``.
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var outbox: Outbox<Output>?
    @exclusivity(unchecked) private var emitting = false
    @exclusivity(unchecked) private var terminationQueued = false
    @exclusivity(unchecked) private var throttle = SenderThrottle()

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
        lock.locked { throttle.takeGateLocked(clearing: throttled) }?.wait()
    }

    /// Whether the sink still accepts events to send: not stopped, and no terminal event queued.
    /// Call under ``lock``.
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
        if emitting { return false }
        emitting = true
        return true
    }

    @inline(never)
    private func queueLocked(_ event: SerializedEvent<Output>) {
        if let outbox {
            outbox.events.enqueue(event)
            if emitting { throttle.registerLocked(backlog: outbox.events.count, raising: throttled) }
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
    final func claimOrQueueLocked(_ element: Output) -> Bool {
        guard acceptsEventsLocked else { return false }
        if emitting {
            queueContendedLocked(element)
            return false
        }
        emitting = true
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
        if lock.locked({ releaseTokenIfIdleLocked() }) { return }
        drain()
    }

    /// Sends `element` downstream in order with everything else this sink sends: on this thread at
    /// once if nobody is emitting, otherwise by the thread that is.
    final func sendNext(_ element: Output) {
        if locked({ claimOrQueueLocked(element) }) { deliverClaimed(element) }
    }

    /// Sends the terminal event after everything already queued; nothing is accepted after it. When
    /// nobody is emitting it is delivered at once (the token is kept: nothing may follow it).
    final func sendTermination(_ termination: Termination) {
        let claimed = locked { () -> Bool in
            guard acceptsEventsLocked else { return false }
            terminationQueued = true
            if emitting {
                queueTerminationLocked(termination)
                return false
            }
            emitting = true
            return true
        }
        if claimed { forwardTermination(termination) }
    }

    @inline(never)
    private func queueTerminationLocked(_ termination: Termination) {
        queueLocked(.terminate(termination))
    }

    /// Gives the token back if nothing is queued (or the sink stopped); otherwise keeps it for a drain.
    private func releaseTokenIfIdleLocked() -> Bool {
        if outbox?.isEmpty ?? true || !isForwarding {
            emitting = false
            return true
        }
        return false
    }

    /// Delivers the queued events in order until none is left, then gives the token back. Only the
    /// token holder calls it, never under ``lock``.
    final func drain() {
        while let event = dequeue() {
            switch event {
            case .next(let element):
                forward(element)
                didForwardElement()
            case .terminate(let termination):
                // The token is kept: nothing may follow a terminal event. Senders waiting for the
                // backlog to shrink go on (what they queue is dropped).
                lock.locked { throttle.tokenReleasedLocked() }?.wake()
                forwardTermination(termination)
                return
            }
        }
    }

    private func dequeue() -> SerializedEvent<Output>? {
        var wakeUp: ThrottleWakeUp?
        let event = lock.locked { () -> SerializedEvent<Output>? in
            if isForwarding, let event = outbox?.events.dequeue() {
                throttle.holderDrainsLocked()
                return event
            }
            emitting = false
            wakeUp = throttle.tokenReleasedLocked()
            return nil
        }
        wakeUp?.wake()
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
            wakeUp = throttle.tokenReleasedLocked()
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
