/// The shared shape of the count-based operators' observables (`skip(_:)`, `take(_:)`,
/// `takeLast(_:)`, `element(at:)`): one source and a count (for `element(at:)`, the index).
///
/// Subclasses override only `subscribe(sink:)`.
class CountProducer<Element>: Observable<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
        super.init()
    }
}

/// The sink of `skip(_:)`, `take(_:)` and `element(at:)`: it counts elements down from the
/// observable's count. Only `next` touches `remaining`, and upstream serializes it.
class CountdownSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    @exclusivity(unchecked) final var remaining: Int

    init(remaining: Int, downstream: Sink<Element>) {
        self.remaining = remaining
        super.init(downstream: downstream)
    }
}
