extension ObservableType {
    /// Transforms each element with `transform` and passes on only the results that are not `nil`.
    ///
    /// Completes and errors when the source does; a throwing `transform` ends the sequence with its
    /// error and disposes the source. No scheduler; no lock or allocation per element.
    /// RxJS: `map` + `filter`; Combine: `compactMap` / `tryCompactMap`.
    ///
    /// - Parameter transform: Maps an element to a result, or to `nil` to drop it.
    /// - Returns: The non-`nil` results, in order.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        CompactMapObservable(source: asObservable(), transform: transform)
    }
}

final class CompactMapObservable<Source, Result>: Observable<Result>, @unchecked Sendable {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result?

    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result?) {
        self.source = source
        self.transform = transform
        super.init()
        needsTrampoline = source.needsTrampoline
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        let sink = CompactMapSink(transform: transform, downstream: downstream)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink
    }
}

final class CompactMapSink<Source, Result>: OperatorSink<Source, Result>, @unchecked Sendable {
    private let transform: (Source) throws -> Result?

    init(transform: @escaping (Source) throws -> Result?, downstream: Sink<Result>) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        do {
            if let result = try transform(element) { downstream.next(result) }
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
