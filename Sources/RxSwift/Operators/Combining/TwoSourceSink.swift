/// The base of an operator with its source and one other sequence (`take(until:)`, `skip(until:)`,
/// `withLatestFrom`, `sample`), which may deliver on different threads: subclasses decide under
/// `lock` and queue; ``SerializingOperatorSink`` delivers.
///
/// Thread-safety: `otherSubscription` is itself thread-safe; `gone` and the subclass's state are
/// guarded by `lock`.
class TwoSourceSink<Input, Other, Output>: SerializingOperatorSink<Input, Output>, @unchecked Sendable {
    /// The subscription to the other sequence; disposed with the sink, or earlier by the subclass.
    final let otherSubscription = SingleAssignmentDisposable()
    /// Which sources are gone: 1, the source let go; 2, the other let go or ended; 4, both, said once.
    @exclusivity(unchecked) private var gone = 0

    /// Subscribes to `other`, delivering its events to ``otherNext(_:)`` and ``otherTerminate(_:)``.
    final func subscribe(other: Observable<Other>) {
        otherSubscription.setDisposable(other.subscribe(sink: TwoSourceOtherSink(parent: self)))
    }

    func otherNext(_ element: Other) {
        rxAbstractMethod()
    }

    func otherTerminate(_ termination: Termination) {
        rxAbstractMethod()
    }

    /// Queues `event` and delivers it if this thread claimed the loop.
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
            // Once, and after what another thread is delivering.
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

/// A remembered element, boxed (DESIGN.md, "The hot path"). Its owner says how it is synchronized.
final class TwoSourceBox<Value> {
    @exclusivity(unchecked) var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The producer of a ``TwoSourceSink`` operator; it needs a trampoline if either sequence does.
class TwoSourceProducer<Input, Other, Output>: Observable<Output>, @unchecked Sendable {
    final let source: Observable<Input>
    final let other: Observable<Other>

    init(source: Observable<Input>, other: Observable<Other>) {
        self.source = source
        self.other = other
        super.init()
    }
}
