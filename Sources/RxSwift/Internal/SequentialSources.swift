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
    fileprivate let sources: Sources
    /// How many sources `sources` has, when known (`concat` of a collection): the sink then drops its
    /// iterator once it took the last one, as RxSwift does.
    fileprivate let count: Int?
    fileprivate let movesOn: SequentialSourcesMove

    init(sources: Sources, count: Int?, movesOn: SequentialSourcesMove) {
        self.sources = sources
        self.count = count
        self.movesOn = movesOn
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = SequentialSourcesSink<Element, Sources>(
            sources: sources.makeIterator(), count: count, movesOn: movesOn, downstream: downstream)
        sink.start()
        return sink.asDisposable
    }
}

/// Subscribes to one source after another (`concat`, `catch(sequence:)`, `retry`), each through a
/// ``ForwardingSink`` that stops at its terminal event. The thread that raises `pendingAttempts` from
/// zero makes attempts until it is back to zero: serialized without a lock, with a flat stack. A source
/// of this same kind is flattened (its iterator pushed on `enclosing`), as RxSwift's
/// `TailRecursiveSink`.
///
/// Thread-safety: `current`, `enclosing` and `lastError` are used only by the thread running the loop,
/// or written before the atomic increment that hands the loop over.
final class SequentialSourcesSink<Element, Sources: Sequence>: OperatorSink<Element, Element>,
    @unchecked Sendable
where Sources.Element == Observable<Element> {
    private struct Generator {
        var iterator: Sources.Iterator
        var remaining: Int?
    }

    /// The innermost iterator, drawn from first; `nil` once it ran out or was dropped.
    private var current: Generator?
    /// The iterators that nested sequences interrupted, innermost last.
    private var enclosing: [Generator] = []
    private let movesOn: SequentialSourcesMove
    private var lastError: Swift.Error?
    private let currentAttempt = SerialDisposable()
    private let pendingAttempts = Atomic<Int>(0)

    init(sources: Sources.Iterator, count: Int?, movesOn: SequentialSourcesMove, downstream: Sink<Element>) {
        self.current = Generator(iterator: sources, remaining: count)
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

    /// The running attempt's source let go of it: nothing moves on. Disposing both this sink and
    /// `currentAttempt` breaks their cycle.
    override func forwardSourceGone() {
        currentAttempt.dispose()
        letGoOfDownstream()
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

    /// Also lets the loop release the sources (on its own thread, or at once if it is idle).
    override func dispose() {
        super.dispose()
        requestAttempt()
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
        guard isForwarding else {
            current = nil
            enclosing = []
            return
        }
        guard let source = nextSource() else {
            forwardTermination(lastError.map { .error($0) } ?? .completed)
            return
        }
        let attempt = ForwardingSink(downstream: self)
        // Disposes the finished attempt before the next one subscribes, as RxSwift does.
        currentAttempt.disposable = attempt
        attempt.subscribeLater(to: source)
    }

    /// The next source to subscribe to, flattening nested observables of this kind; `nil` when every
    /// iterator has run out.
    private func nextSource() -> Observable<Element>? {
        while true {
            guard var generator = current ?? enclosing.popLast() else { return nil }
            current = nil
            guard let candidate = generator.iterator.next() else { continue }
            if let remaining = generator.remaining {
                // Taking the last source drops the iterator (and what it holds) at once.
                if remaining > 1 {
                    generator.remaining = remaining - 1
                    current = generator
                }
            } else {
                current = generator
            }
            guard let nested = candidate as? SequentialSourcesObservable<Element, Sources>,
                nested.movesOn == movesOn
            else { return candidate }
            if let outer = current { enclosing.append(outer) }
            current = Generator(iterator: nested.sources.makeIterator(), remaining: nested.count)
            #if DEBUG
                recordTailRecursiveSinkStackSize(enclosing.count + 1)
            #endif
        }
    }
}
