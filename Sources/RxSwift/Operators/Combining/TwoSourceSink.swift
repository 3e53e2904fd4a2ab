/// The base of an operator that subscribes to its source and to one other sequence (`take(until:)`,
/// `skip(until:)`, `withLatestFrom`, `sample`). The two may deliver on different threads: subclasses
/// decide under the base's `lock` and queue what to send; the drain loop of
/// ``SerializingOperatorSink`` delivers it, never under the lock (the Contracts article).
///
/// Thread-safety: `otherSubscription` is itself thread-safe; the subclass's state is guarded by
/// `lock`.
class TwoSourceSink<Input, Other, Output>: SerializingOperatorSink<Input, Output>, @unchecked Sendable {
    /// The subscription to the other sequence; disposed with the sink, or earlier by the subclass.
    final let otherSubscription = SingleAssignmentDisposable()
    /// Which sources are gone for good, under the lock: 1, the source let go of this sink
    /// (``AnySink/sourceGone()``; its terminal event ends the operator anyway); 2, the other
    /// sequence let go of it or ended. Both gone: nothing can arrive any more (4: said once).
    @exclusivity(unchecked) private var gone = 0

    /// Subscribes to `other`, delivering its events to ``otherNext(_:)`` and ``otherTerminate(_:)``.
    final func subscribe(other: Observable<Other>) {
        otherSubscription.setDisposable(other.subscribe(sink: TwoSourceOtherSink(parent: self)))
    }

    /// An element of the other sequence.
    func otherNext(_ element: Other) {
        rxAbstractMethod()
    }

    /// The other sequence's terminal event.
    func otherTerminate(_ termination: Termination) {
        rxAbstractMethod()
    }

    /// Queues `event` under the lock and delivers it if this thread took the emitting token.
    final func send(_ event: SerializedEvent<Output>) {
        if locked({ enqueueLocked(event) }) { drain() }
    }

    override final func forwardSourceGone() {
        markGone(1)
    }

    /// The other sequence let go of this sink or ended.
    final func otherGone() {
        markGone(2)
    }

    private func markGone(_ source: Int) {
        if locked({ () -> Bool in
            gone |= source
            // Once, and after what another thread is delivering (``letGoNowOrWhenIdleLocked()``).
            guard gone == 3 else { return false }
            gone |= 4
            return letGoNowOrWhenIdleLocked()
        }) {
            letGoOfDownstreamOnce()
        }
    }

    override func disposeResources() {
        otherSubscription.dispose()
        super.disposeResources()
    }
}

/// Receives the other sequence's events for a ``TwoSourceSink``. It keeps its parent alive until the
/// other subscription is disposed, which the parent's disposal does.
final class TwoSourceOtherSink<Input, Other, Output>: Sink<Other>, @unchecked Sendable {
    private let parent: TwoSourceSink<Input, Other, Output>

    init(parent: TwoSourceSink<Input, Other, Output>) {
        self.parent = parent
    }

    override func next(_ element: Other) {
        parent.otherNext(element)
    }

    override func terminate(_ termination: Termination) {
        parent.otherTerminate(termination)
        parent.otherGone()
    }

    override func sourceGone() {
        parent.otherGone()
    }
}

/// A remembered element, boxed so that the per-element paths handle a class reference rather than
/// an `Optional` of a generic type. Its owner says how it is synchronized (mutated only under the
/// owner's lock, or never mutated once published).
final class TwoSourceBox<Value> {
    @exclusivity(unchecked) var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The producer of a ``TwoSourceSink`` operator: it stores both sequences and needs a trampoline if
/// either does.
class TwoSourceProducer<Input, Other, Output>: Observable<Output>, @unchecked Sendable {
    final let source: Observable<Input>
    final let other: Observable<Other>

    init(source: Observable<Input>, other: Observable<Other>) {
        self.source = source
        self.other = other
        super.init()
    }
}
