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

/// Built by inlinable code, so that making the operator instantiates no generic class at run time
/// (see "Performance").
@usableFromInline
final class FilterObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    /// Makes the sink where the element types are concrete (the default argument is evaluated in
    /// the caller's module): a sink made in this unspecialized code would look its class metadata up
    /// on every subscription.
    private let makeSink: (@escaping (Element) throws -> Bool, Sink<Element>) -> FilterSink<Element>

    @usableFromInline
    init(
        source: Observable<Element>, predicate: @escaping (Element) throws -> Bool,
        makeSink: @escaping (@escaping (Element) throws -> Bool, Sink<Element>) -> FilterSink<Element> = {
            FilterSink(predicate: $0, downstream: $1)
        }
    ) {
        self.source = source
        self.predicate = predicate
        self.makeSink = makeSink
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = makeSink(predicate, downstream)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}

@usableFromInline
final class FilterSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let predicate: (Element) throws -> Bool

    @usableFromInline
    init(predicate: @escaping (Element) throws -> Bool, downstream: Sink<Element>) {
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
