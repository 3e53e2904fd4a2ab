extension ObservableType {
    /// Passes on only the elements for which `predicate` returns `true`.
    ///
    /// Completes and errors when the source does; a throwing `predicate` ends the sequence with its
    /// error and disposes the source. No scheduler; no lock or allocation per element.
    /// RxJS: `filter`; Combine: `filter` / `tryFilter`.
    @inlinable
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        FilterObservable(source: asObservable(), predicate: predicate)
    }
}

/// Inlinable, with the sink's type stored, so that building the operator and subscribing to it
/// instantiate no generic class at run time (see "Performance").
@usableFromInline
final class FilterObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool
    private let sinkType: FilterSink<Element>.Type

    @inlinable
    convenience init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.init(source: source, predicate: predicate, sinkType: FilterSink<Element>.self)
    }

    @usableFromInline
    init(
        source: Observable<Element>, predicate: @escaping (Element) throws -> Bool,
        sinkType: FilterSink<Element>.Type
    ) {
        self.source = source
        self.predicate = predicate
        self.sinkType = sinkType
        super.init()
        needsTrampoline = source.needsTrampoline
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = sinkType.init(predicate: predicate, downstream: downstream)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink
    }
}

// Not `final`: the compiler would then build the sink from its static type, looking its generic
// metadata up at run time, instead of from the stored `sinkType`.
@usableFromInline
class FilterSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let predicate: (Element) throws -> Bool

    required init(predicate: @escaping (Element) throws -> Bool, downstream: Sink<Element>) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        do {
            if try predicate(element) { downstream.next(element) }
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
