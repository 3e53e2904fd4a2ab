/// The sink of `flatMapLatest` and `switchLatest`. Each inner sequence gets an id; only the latest
/// id's events pass. Every send checks its id in the critical section that queues or claims it, and a
/// switch drops what older sequences queued and waits (bounded) for another thread's delivery
/// (``supersedeLocked()``): once a switch has returned, nothing of an older inner sequence is
/// delivered. The selector and the subscriptions run outside the lock.
///
/// Thread-safety: every `@exclusivity(unchecked)` property is guarded by `lock`; `current` is itself
/// thread-safe.
@usableFromInline
final class SwitchSink<SourceElement, Inner>: SerializingOperatorSink<SourceElement, Inner>, @unchecked Sendable {
    private let selector: (SourceElement) throws -> Observable<Inner>
    @exclusivity(unchecked) private var latest = 0
    /// Whether the latest inner sequence is still running.
    @exclusivity(unchecked) private var hasLatest = false
    /// Whether `current` holds a subscription that may need disposing.
    @exclusivity(unchecked) private var hasSubscription = false
    @exclusivity(unchecked) private var sourceCompleted = false
    /// Whether the latest inner sequence's source let go of it.
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
            // Stopped: wait for another thread delivering the terminal event, so it is not delivered after
            // this call returned.
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
        // Source elements are serialized, so no other switch happens until this one returns. If the result
        // is ending, there is nothing to switch to.
        if inner.isConstantSource {
            // A trivial result: bit 0, switched; bit 1, an inner subscription to dispose; bit 2, superseding
            // work to finish after unlocking.
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

    /// The latest inner subscription's holder, made on first use; made after the sink stopped, it is
    /// disposed at once, and so is what is put in it.
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

    /// The end of inner sequence `id`: if it is the latest, ends the result when it failed or completed
    /// after the source; releases the sink if it completed after the source let go.
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
            // After what another thread is delivering, if one is.
            return allSourcesGoneLocked() && letGoNowOrWhenIdleLocked()
        }) {
            letGoOfDownstreamOnce()
        }
    }

    /// Whether nothing can arrive any more: the source completed or let go, and so did the latest inner
    /// sequence, if any. True once.
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
