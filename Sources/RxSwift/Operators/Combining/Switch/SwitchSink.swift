/// The sink of `flatMapLatest` and `switchLatest`.
///
/// Each inner sequence gets an id; only the latest id's events pass. The id check and the delivery
/// decision are made in one critical section of the base's `lock`, so an element of a superseded
/// sequence that races with the switch is either delivered before the switch was decided or not at
/// all. Delivery goes through the drain loop of ``SerializingOperatorSink``; the selector, the
/// disposal of the previous inner subscription and the new subscription run outside the lock.
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
    /// The latest inner subscription, made on the first inner sequence that is not a constant.
    @exclusivity(unchecked) private var currentStorage: SerialDisposable?

    @usableFromInline
    init(selector: @escaping (SourceElement) throws -> Observable<Inner>, downstream: Sink<Inner>) {
        self.selector = selector
        super.init(downstream: downstream)
    }

    override func next(_ element: SourceElement) {
        guard isForwarding else { return }
        let inner: Observable<Inner>
        do {
            inner = try selector(element)
        } catch {
            sendTermination(.error(error))
            return
        }
        // Source elements are serialized, so no other switch can happen until this one returns.
        if inner.isConstantSource {
            let hadSubscription = locked { () -> Bool in
                latest &+= 1
                hasLatest = false
                defer { hasSubscription = false }
                return hasSubscription
            }
            if hadSubscription { current().disposable = Disposables.create() }
            if case .error(let error) = inner.deliverConstant({ sendNext($0) }) {
                sendTermination(.error(error))
            }
            return
        }
        let id = locked { () -> Int in
            latest &+= 1
            hasLatest = true
            hasSubscription = true
            return latest
        }
        let sink = SwitchInnerSink(parent: self, id: id, downstream: downstream)
        // Disposes the previous inner subscription before the new one starts, as RxSwift does.
        current().disposable = sink
        sink.subscribeLater(to: inner)
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .error:
            sendTermination(termination)
        case .completed:
            let completes = locked { () -> Bool in
                sourceCompleted = true
                return !hasLatest
            }
            if completes {
                sendTermination(.completed)
            } else {
                releaseUpstream()
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
        if locked({ id == latest && claimOrQueueLocked(element) }) { deliverClaimed(element) }
    }

    /// The end of the inner sequence `id`.
    func innerTerminated(_ termination: Termination, id: Int) {
        switch termination {
        case .error:
            if locked({ id == latest }) { sendTermination(termination) }
        case .completed:
            let completes = locked { () -> Bool in
                guard id == latest else { return false }
                hasLatest = false
                return sourceCompleted
            }
            if completes { sendTermination(.completed) }
        }
    }

    override func disposeResources() {
        locked { currentStorage }?.dispose()
        super.disposeResources()
    }
}

/// Receives one inner sequence's events for a ``SwitchSink``. Its `downstream` is not used.
final class SwitchInnerSink<SourceElement, Inner>: OperatorSink<Inner, Inner>, @unchecked Sendable {
    private let parent: SwitchSink<SourceElement, Inner>
    private let id: Int

    init(parent: SwitchSink<SourceElement, Inner>, id: Int, downstream: Sink<Inner>) {
        self.parent = parent
        self.id = id
        super.init(downstream: downstream)
    }

    override func next(_ element: Inner) {
        if isForwarding { parent.innerNext(element, id: id) }
    }

    override func terminate(_ termination: Termination) {
        guard stop() else { return }
        parent.innerTerminated(termination, id: id)
        dispose()
    }
}
