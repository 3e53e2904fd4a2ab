/// The shared shape of the count-based operators' observables (`skip(_:)`, `take(_:)`,
/// `takeLast(_:)`, `element(at:)`): one source and a count (for `element(at:)`, the index).
///
/// Subclasses override only `subscribe(sink:)`. Only subscription touches this class, never the per-element path.
class CountProducer<Element>: Observable<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
        super.init()
    }
}
