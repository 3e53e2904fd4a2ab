import Synchronization

/// The producer of the merge family (`flatMap`, `flatMapFirst`, `concatMap`, `merge`,
/// `merge(maxConcurrent:)`, `concat()`). Built by inlinable code and makes its sinks through
/// `makeSink` (DESIGN.md, "The hot path").
@usableFromInline
final class MergeObservable<SourceElement, Inner>: Observable<Inner>, @unchecked Sendable {
    @usableFromInline
    typealias SinkFactory = (
        MergeMode, @escaping (SourceElement) throws -> Observable<Inner>, Sink<Inner>
    ) -> MergeSink<SourceElement, Inner>

    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Observable<Inner>
    private let mode: MergeMode
    private let makeSink: SinkFactory

    @usableFromInline
    init(
        source: Observable<SourceElement>, mode: MergeMode,
        selector: @escaping (SourceElement) throws -> Observable<Inner>,
        makeSink: @escaping SinkFactory = { MergeSink(mode: $0, selector: $1, downstream: $2) }
    ) {
        self.source = source
        self.selector = selector
        self.mode = mode
        self.makeSink = makeSink
        super.init()
    }

    override func subscribe(sink downstream: Sink<Inner>) -> Disposable {
        return makeSink(mode, selector, downstream).subscribed(to: source)
    }
}

/// Subscribes to an inner sequence per source element and delivers all their elements, serialized.
/// A ``MergeStateMachine`` decides under the base's `lock`; subscribing and delivering happen after
/// unlocking, through the drain loop of ``SerializingOperatorSink``, so no thread waits for another
/// while holding a lock (RxSwift's `merge` lock inversion cannot happen).
///
/// Thread-safety: `state`, `waiting`, `inners` and `goneInners` are guarded by `lock`; the selector
/// runs on the source's (serialized) thread.
@usableFromInline
final class MergeSink<SourceElement, Inner>: SerializingOperatorSink<SourceElement, Inner>, @unchecked Sendable {
    private let selector: (SourceElement) throws -> Observable<Inner>
    /// The mode, read without the lock (`state.mode` would access all of `state`).
    private let mode: MergeMode
    @exclusivity(unchecked) private var state: MergeStateMachine
    /// The sequences waiting for a slot (`.limited`), made on first use.
    @exclusivity(unchecked) private var waiting: MergeWaitingQueue<Inner>?
    /// The active inner subscriptions, made on the first one.
    @exclusivity(unchecked) private var inners: CompositeDisposable?
    /// How many active inner sequences' sources let go of them: with the source gone too, nothing can be
    /// delivered and the sink is released.
    @exclusivity(unchecked) private var goneInners = 0
    @exclusivity(unchecked) private var released = false

    @usableFromInline
    init(
        mode: MergeMode, selector: @escaping (SourceElement) throws -> Observable<Inner>, downstream: Sink<Inner>
    ) {
        self.selector = selector
        self.mode = mode
        self.state = MergeStateMachine(mode: mode)
        super.init(downstream: downstream)
    }

    override func next(_ element: SourceElement) {
        guard isForwarding else { return }
        if case .first = mode {
            guard locked({ state.reserveFirst() }) else { return }
        }
        let inner: Observable<Inner>
        do {
            inner = try selector(element)
        } catch {
            sendTermination(.error(error))
            return
        }
        switch mode {
        case .all:
            start(inner, counted: false)
        case .first:
            start(inner, counted: true)
        case .limited:
            let admitted = locked { () -> Bool in
                if state.admitOrWait() { return true }
                enqueueWaitingLocked(inner)
                return false
            }
            if admitted { start(inner, counted: true) }
        }
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .error:
            sendTermination(termination)
        case .completed:
            var released = false
            if locked({ () -> Bool in
                if state.completeSource() { return true }
                released = allSourcesGoneLocked() && letGoNowOrWhenIdleLocked()
                return false
            }) {
                sendTermination(.completed)
            } else {
                disposeUpstream()
                if released { letGoOfDownstreamOnce() }
            }
        }
    }

    override func forwardSourceGone() {
        recordSourceGone { allSourcesGoneLocked() }
    }

    /// An active inner sequence's source let go of it: it will never end nor deliver.
    func innerSourceGone() {
        if locked({ () -> Bool in
            goneInners += 1
            // After what another thread is delivering, if one is.
            return allSourcesGoneLocked() && letGoNowOrWhenIdleLocked()
        }) {
            letGoOfDownstreamOnce()
        }
    }

    /// Whether nothing can arrive any more: the source completed or let go, and every active inner
    /// sequence let go (the waiting ones would wait for ever). True once.
    private func allSourcesGoneLocked() -> Bool {
        guard acceptsEventsLocked, !released, isSourceGone || state.sourceCompleted, state.active == goneInners
        else { return false }
        released = true
        return true
    }

    /// Starts `inner`: a constant source is delivered at once without a subscription. `counted`: its
    /// slot is already counted as active.
    private func start(_ inner: Observable<Inner>, counted: Bool) {
        var inner = inner
        while true {
            if let termination = inner.deliverConstant({ sendNext($0) }) {
                if case .error = termination {
                    sendTermination(termination)
                    return
                }
                // In `.all` mode a constant source was never counted: nothing else to do.
                guard counted, let next = finishInner() else { return }
                inner = next
                continue
            }
            if !counted { locked { state.admit() } }
            subscribe(inner)
            return
        }
    }

    private func subscribe(_ inner: Observable<Inner>) {
        // A group is made only while the sink goes on; an inner subscription racing with `dispose()` is
        // disposed as soon as it is inserted into the disposed group.
        let group = locked { () -> CompositeDisposable? in
            if let inners { return inners }
            guard isForwarding else { return nil }
            let group = CompositeDisposable()
            inners = group
            return group
        }
        guard let group else { return }
        let sink = MergeInnerSink(parent: self)
        guard let key = group.insert(sink) else { return }
        sink.key = key
        sink.subscribeLater(to: inner)
    }

    func innerTerminated(_ sink: MergeInnerSink<SourceElement, Inner>, _ termination: Termination) {
        if let key = sink.key { locked { inners }?.remove(for: key) }
        if case .error = termination {
            sendTermination(termination)
            return
        }
        if let next = finishInner() { startWaiting(next) }
    }

    /// Starts a waiting sequence from the completion of another, through the current-thread trampoline
    /// (as RxSwift's PR #2616), so that a run of synchronous inner sequences does not grow the stack.
    @inline(never)
    private func startWaiting(_ next: Observable<Inner>) {
        _ = CurrentThreadScheduler.instance.schedule(next) { [self] next in
            start(next, counted: true)
            return Disposables.create()
        }
    }

    /// Frees an active slot; returns the waiting sequence that takes it (in the same critical section, so
    /// two completing at once never take the same one). Completes the result when the source completed
    /// and nothing is left; releases the sink when what is left can never deliver.
    private func finishInner() -> Observable<Inner>? {
        var next: Observable<Inner>?
        var released = false
        let after = locked { () -> MergeStateMachine.AfterInner in
            let after = state.innerCompleted()
            switch after {
            case .startWaiting: next = dequeueWaitingLocked()
            case .none: released = allSourcesGoneLocked() && letGoNowOrWhenIdleLocked()
            case .complete: break
            }
            return after
        }
        if case .complete = after { sendTermination(.completed) }
        if released { letGoOfDownstreamOnce() }
        return next
    }

    @inline(never)
    private func enqueueWaitingLocked(_ inner: Observable<Inner>) {
        if let waiting {
            waiting.sources.enqueue(inner)
        } else {
            let created = MergeWaitingQueue<Inner>()
            created.sources.enqueue(inner)
            waiting = created
        }
    }

    @inline(never)
    private func dequeueWaitingLocked() -> Observable<Inner>? {
        waiting?.sources.dequeue()
    }

    override func disposeResources() {
        // Out through captured locals, released at the end of this scope after unlocking (DESIGN.md, "The
        // hot path").
        var group: CompositeDisposable?
        var dropped: AnyObject?
        locked {
            group = inners
            dropped = waiting
            waiting = nil
        }
        group?.dispose()
        if dropped != nil { dropped = nil }
        super.disposeResources()
    }
}

final class MergeWaitingQueue<Inner> {
    @exclusivity(unchecked) var sources = Queue<Observable<Inner>>()
}

/// Receives one inner sequence's events for a ``MergeSink``, which serializes them.
final class MergeInnerSink<SourceElement, Inner>: OperatorSink<Inner, Inner>, @unchecked Sendable {
    private let parent: MergeSink<SourceElement, Inner>
    /// Set before the subscription starts, read when it ends.
    @exclusivity(unchecked) var key: CompositeDisposable.DisposeKey?

    init(parent: MergeSink<SourceElement, Inner>) {
        self.parent = parent
        // The parent's downstream fills the base's slot; this sink never calls it.
        super.init(downstream: parent.downstream)
    }

    override func next(_ element: Inner) {
        if isForwarding { parent.sendNext(element) }
    }

    override func terminate(_ termination: Termination) {
        guard stop() else { return }
        parent.innerTerminated(self, termination)
        dispose()
    }

    override func forwardSourceGone() {
        guard stop() else { return }
        parent.innerSourceGone()
    }
}
