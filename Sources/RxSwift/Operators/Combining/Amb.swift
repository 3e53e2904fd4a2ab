import Synchronization

extension ObservableType {
    /// Mirrors whichever of the source and `right` emits first (an element or a terminal event).
    ///
    /// Both are subscribed, the source first. The first event decides: the other subscription is
    /// disposed before that event is delivered, and from then on only the winner's events pass. No
    /// scheduler is used; the winner's events are delivered on its thread.
    ///
    /// - Parameter right: The sequence competing with the source.
    /// - Returns: The events of the sequence that reacted first.
    ///
    /// RxJS: `race`; Combine: none.
    public func amb<O2: ObservableType>(_ right: O2) -> Observable<Element> where O2.Element == Element {
        AmbObservable(sources: [asObservable(), right.asObservable()])
    }

    /// Mirrors whichever sequence of `sequence` emits first (an element or a terminal event).
    ///
    /// All are subscribed, in order; the first event decides and every other subscription is disposed
    /// before it is delivered. A sequence subscribed after the decision (the decision was made while
    /// an earlier one was being subscribed) is disposed at once, as in RxSwift. An empty `sequence`
    /// gives a sequence that never emits.
    ///
    /// - Parameter sequence: The competing sequences.
    /// - Returns: The events of the sequence that reacted first.
    ///
    /// RxJS: `race`; Combine: none.
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        AmbObservable(sources: Array(sequence))
    }
}

final class AmbObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = AmbSink(count: sources.count, downstream: downstream)
        for (index, source) in sources.enumerated() {
            sink.subscriptions[index].setDisposable(source.subscribe(sink: AmbSourceSink(parent: sink, index: index)))
        }
        return sink.asDisposable
    }
}

/// Thread-safety: `winner` is guarded by `lock`; `subscriptions` is immutable (its elements are
/// thread-safe). Only the winner delivers, from its own (serialized) thread.
final class AmbSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var winner = -1
    /// How many competitors let go of their sink before any won (under `lock`).
    @exclusivity(unchecked) private var gone = 0
    let subscriptions: [SingleAssignmentDisposable]

    init(count: Int, downstream: Sink<Element>) {
        subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
        super.init(downstream: downstream)
    }

    /// Whether the source at `index` wins (or already won); the first caller wins, and the others'
    /// subscriptions are disposed (after unlocking).
    func choose(_ index: Int) -> Bool {
        let (won, decided) = lock.locked { () -> (Bool, Bool) in
            if winner >= 0 { return (winner == index, false) }
            winner = index
            return (true, true)
        }
        if decided {
            for (other, subscription) in subscriptions.enumerated() where other != index {
                subscription.dispose()
            }
        }
        return won
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }

    /// The competitor at `index` let go: if it won, or every competitor is gone before any won, nothing
    /// more can arrive.
    func competitorReleased(_ index: Int) {
        let released: Bool = lock.locked {
            if winner >= 0 { return winner == index }
            gone += 1
            return gone == subscriptions.count
        }
        guard released, isForwarding else { return }
        letGoOfDownstream()
    }

    override func disposeResources() {
        for subscription in subscriptions { subscription.dispose() }
    }
}

/// Receives one competitor's events. `won` is touched only by that competitor's serialized calls.
final class AmbSourceSink<Element>: Sink<Element>, @unchecked Sendable {
    private let parent: AmbSink<Element>
    private let index: Int
    @exclusivity(unchecked) private var won = false

    init(parent: AmbSink<Element>, index: Int) {
        self.parent = parent
        self.index = index
    }

    override func next(_ element: Element) {
        if won || parent.choose(index) {
            won = true
            parent.forward(element)
        }
    }

    override func terminate(_ termination: Termination) {
        if won || parent.choose(index) {
            won = true
            parent.forwardTermination(termination)
        }
    }

    override func sourceGone() {
        parent.competitorReleased(index)
    }
}
