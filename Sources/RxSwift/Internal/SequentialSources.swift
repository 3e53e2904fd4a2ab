import Synchronization

/// When ``SequentialSourcesSink`` moves on to the next source.
enum SequentialSourcesMove {
    /// After an error: `catch(sequence:)`, `retry`. The first completion completes the result.
    case afterError
    /// After a completion: `concat`. The first error errors the result.
    case afterCompletion
}

final class SequentialSourcesObservable<Element, Sources: Sequence>: Observable<Element>, @unchecked Sendable
where Sources.Element == Observable<Element> {
    private let sources: Sources
    private let movesOn: SequentialSourcesMove

    init(sources: Sources, movesOn: SequentialSourcesMove) {
        self.sources = sources
        self.movesOn = movesOn
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = SequentialSourcesSink(sources: sources.makeIterator(), movesOn: movesOn, downstream: downstream)
        sink.start()
        return sink
    }
}

/// Subscribes to one source after another (`concat`, `catch(sequence:)`, `retry`), each through its own ``ForwardingSink``, which
/// stops at the attempt's terminal event so that nothing from a finished attempt arrives here.
///
/// Attempts are made by a drain loop: `pendingAttempts` counts the requests; the thread that raises
/// it from zero makes attempts until it is back to zero, and a request made meanwhile (an error
/// delivered during `subscribe`, on this thread or another) only raises it. That serializes the
/// attempts without a lock and keeps the stack flat.
///
/// Thread-safety: `sources` and `lastError` are only used by the thread that runs the loop, or
/// written before the atomic increment that hands the loop over; the current attempt lives in the
/// `SerialDisposable` that is the upstream.
final class SequentialSourcesSink<Element, Sources: IteratorProtocol>: OperatorSink<Element, Element>,
    @unchecked Sendable
where Sources.Element == Observable<Element> {
    private var sources: Sources
    private let movesOn: SequentialSourcesMove
    private var lastError: Swift.Error?
    private let currentAttempt = SerialDisposable()
    private let pendingAttempts = Atomic<Int>(0)

    init(sources: Sources, movesOn: SequentialSourcesMove, downstream: Sink<Element>) {
        self.sources = sources
        self.movesOn = movesOn
        super.init(downstream: downstream)
    }

    func start() {
        setUpstream(currentAttempt)
        requestAttempt()
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        switch (termination, movesOn) {
        case (.completed, .afterError), (.error, .afterCompletion):
            forwardTermination(termination)
        case (.error(let error), .afterError):
            guard isForwarding else { return }
            lastError = error
            requestAttempt()
        case (.completed, .afterCompletion):
            guard isForwarding else { return }
            requestAttempt()
        }
    }

    private func requestAttempt() {
        if pendingAttempts.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 { return }
        var requests = 1
        repeat {
            attempt()
            requests = pendingAttempts.wrappingSubtract(requests, ordering: .acquiringAndReleasing).newValue
        } while requests != 0
    }

    private func attempt() {
        guard isForwarding else { return }
        guard let source = sources.next() else {
            forwardTermination(lastError.map { .error($0) } ?? .completed)
            return
        }
        let attempt = ForwardingSink(downstream: self)
        // Disposes the failed attempt before the next one subscribes, as RxSwift does.
        currentAttempt.disposable = attempt
        attempt.subscribeLater(to: source)
    }
}
