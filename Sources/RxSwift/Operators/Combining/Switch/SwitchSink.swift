/// The sink of `flatMapLatest` and `switchLatest`.
///
/// Each inner sequence gets an id; only the latest id's events pass. Every decision to send an inner
/// sequence's event — element or terminal — checks its id in the critical section of the base's
/// `lock` that queues it or takes the emitting token for it, and the switch that makes a new id the
/// latest drops, in its own critical section, what older sequences had queued (``supersedeLocked()``).
/// An element of an older sequence that another thread is delivering at that moment is waited for
/// (bounded) before the switch goes on. So once a switch has returned, nothing of an older inner
/// sequence is delivered. Delivery goes through the drain loop of ``SerializingOperatorSink``; the
/// selector, the disposal of the previous inner subscription and the new subscription run outside
/// the lock.
///
/// Thread-safety: `latest`, `hasLatest`, `hasSubscription` and `sourceCompleted` are guarded by
/// `lock`; `current` is itself thread-safe.
@usableFromInline
final class SwitchSink<SourceElement, Inner>: SerializingOperatorSink<SourceElement, Inner>, @unchecked Sendable {
    private let selector: (SourceElement) throws -> Observable<Inner>
    /// The id of the latest inner sequence.
    @exclusivity(unchecked) private var latest = 0
    /// Whether the latest inner sequence is still running.
    @exclusivity(unchecked) private var hasLatest = false
    /// Whether `current` holds a subscription that may need disposing.
    @exclusivity(unchecked) private var hasSubscription = false
    @exclusivity(unchecked) private var sourceCompleted = false
    /// Whether the latest inner sequence's source let go of it (``AnySink/sourceGone()``): with
    /// the source gone too (``SerializingOperatorSink/isSourceGone``), nothing can be delivered any more.
    @exclusivity(unchecked) private var latestGone = false
    @exclusivity(unchecked) private var released = false
    /// The latest inner subscription, made on the first inner sequence that is not a constant.
    @exclusivity(unchecked) private var currentStorage: SerialDisposable?

    @usableFromInline
    init(selector: @escaping (SourceElement) throws -> Observable<Inner>, downstream: Sink<Inner>) {
        self.selector = selector
        super.init(downstream: downstream)
    }

    override func next(_ element: SourceElement) {
        guard isForwarding else {
            // Stopped: if another thread is delivering the terminal event (an inner sequence's
            // error) right now, wait for it, so that it is not delivered after this call returned.
            if !isDisposed, locked({ supersedeLocked() }) { finishSuperseding() }
            return
        }
        let inner: Observable<Inner>
        do {
            inner = try selector(element)
        } catch {
            sendTermination(.error(error))
            return
        }
        // Source elements are serialized, so no other switch can happen until this one returns. The
        // switch drops what older inner sequences queued and waits for the delivery in progress on
        // another thread, if any (``supersedeLocked()``); if the result is ending (a terminal event
        // is queued or being delivered), there is nothing more to switch to.
        if inner.isConstantSource {
            // One trivial result (no metadata, no reference): bit 0, switched; bit 1, an inner
            // subscription is to be disposed; bit 2, superseding work to finish after unlocking.
            let outcome = locked { () -> UInt8 in
                let superseding: UInt8 = supersedeLocked() ? 4 : 0
                guard acceptsEventsLocked else { return superseding }
                latest &+= 1
                hasLatest = false
                latestGone = false
                defer { hasSubscription = false }
                return superseding | 1 | (hasSubscription ? 2 : 0)
            }
            if outcome & 4 != 0 { finishSuperseding() }
            guard outcome & 1 != 0 else { return }
            if outcome & 2 != 0 { current().disposable = Disposables.create() }
            if case .error(let error) = inner.deliverConstant({ sendNext($0) }) {
                sendTermination(.error(error))
            }
            return
        }
        var superseding = false
        let switched = locked { () -> Int? in
            superseding = supersedeLocked()
            guard acceptsEventsLocked else { return nil }
            latest &+= 1
            hasLatest = true
            latestGone = false
            hasSubscription = true
            return latest
        }
        if superseding { finishSuperseding() }
        guard let id = switched else { return }
        let sink = SwitchInnerSink(parent: self, id: id)
        // Disposes the previous inner subscription before the new one starts, as RxSwift does.
        current().disposable = sink
        sink.subscribeLater(to: inner)
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .error:
            sendTermination(termination)
        case .completed:
            var released = false
            let claimed = locked { () -> Bool in
                sourceCompleted = true
                if !hasLatest { return claimTerminationLocked(.completed) }
                released = allSourcesGoneLocked() && letGoNowOrWhenIdleLocked()
                return false
            }
            if claimed {
                deliverClaimedTermination(.completed)
            } else {
                disposeUpstream()
                if released { letGoOfDownstreamOnce() }
            }
        }
    }

    /// The latest inner subscription's holder, made on first use. Made after the sink stopped (a
    /// disposal racing the first switch), it is disposed at once, so the inner subscription about to
    /// be put in it is disposed as soon as it is.
    private func current() -> SerialDisposable {
        var stopped = false
        let holder = locked { () -> SerialDisposable in
            if let currentStorage { return currentStorage }
            let created = SerialDisposable()
            currentStorage = created
            stopped = !isForwarding
            return created
        }
        if stopped { holder.dispose() }
        return holder
    }

    /// An element of the inner sequence `id`: delivered only if it is still the latest.
    func innerNext(_ element: Inner, id: Int) {
        let thread = currentThreadID()
        if locked({ id == latest && claimOrQueueLocked(element, by: thread) }) { deliverClaimed(element) }
    }

    /// The end of the inner sequence `id`: ends the result if it is still the latest and failed, or
    /// completed after the source; releases the sink if it completed after the source let go.
    func innerTerminated(_ termination: Termination, id: Int) {
        var released = false
        let claimed = locked { () -> Bool in
            guard id == latest else { return false }
            if case .completed = termination {
                hasLatest = false
                guard sourceCompleted else {
                    released = allSourcesGoneLocked() && letGoNowOrWhenIdleLocked()
                    return false
                }
            }
            return claimTerminationLocked(termination)
        }
        if claimed { deliverClaimedTermination(termination) }
        if released { letGoOfDownstreamOnce() }
    }

    override func forwardSourceGone() {
        recordSourceGone { allSourcesGoneLocked() }
    }

    /// The source of the inner sequence `id` let go of it: if it is the latest, it will never end.
    func innerSourceGone(id: Int) {
        if locked({ () -> Bool in
            guard id == latest, hasLatest else { return false }
            latestGone = true
            // After what another thread is delivering, if one is (``letGoNowOrWhenIdleLocked()``).
            return allSourcesGoneLocked() && letGoNowOrWhenIdleLocked()
        }) {
            letGoOfDownstreamOnce()
        }
    }

    /// Whether nothing can arrive any more: the source completed or let go, and the latest inner
    /// sequence, if one runs, let go too. True once. Under the lock.
    private func allSourcesGoneLocked() -> Bool {
        guard acceptsEventsLocked, !released, isSourceGone || sourceCompleted, !hasLatest || latestGone else {
            return false
        }
        released = true
        return true
    }

    override func disposeResources() {
        locked { currentStorage }?.dispose()
        super.disposeResources()
    }
}

/// Receives one inner sequence's events for a ``SwitchSink``, which serializes them.
final class SwitchInnerSink<SourceElement, Inner>: OperatorSink<Inner, Inner>, @unchecked Sendable {
    private let parent: SwitchSink<SourceElement, Inner>
    private let id: Int

    init(parent: SwitchSink<SourceElement, Inner>, id: Int) {
        self.parent = parent
        self.id = id
        // The parent's downstream fills the base's slot; this sink never calls it.
        super.init(downstream: parent.downstream)
    }

    override func next(_ element: Inner) {
        if isForwarding { parent.innerNext(element, id: id) }
    }

    override func terminate(_ termination: Termination) {
        guard stop() else { return }
        parent.innerTerminated(termination, id: id)
        dispose()
    }

    override func forwardSourceGone() {
        guard stop() else { return }
        parent.innerSourceGone(id: id)
    }
}
