extension ObservableType {
    /// Transforms each element with `transform`.
    ///
    /// Completes and errors when the source does; a throwing `transform` ends the sequence with its
    /// error and disposes the source. No scheduler; no lock or allocation per element.
    /// RxJS: `map`; Combine: `map` / `tryMap`.
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        MapObservable(source: asObservable(), transform: transform)
    }
}

/// Built by inlinable code, so that making the operator instantiates no generic class at run time
/// (see "Performance").
@usableFromInline
final class MapObservable<Source, Result>: Observable<Result>, @unchecked Sendable {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result

    /// Makes the sink where the element types are concrete (the default argument is evaluated in
    /// the caller's module): a sink made in this unspecialized code would look its class metadata up
    /// on every subscription.
    private let makeSink: (@escaping (Source) throws -> Result, Sink<Result>) -> MapSink<Source, Result>

    @usableFromInline
    init(
        source: Observable<Source>, transform: @escaping (Source) throws -> Result,
        makeSink: @escaping (@escaping (Source) throws -> Result, Sink<Result>) -> MapSink<Source, Result> = {
            MapSink(transform: $0, downstream: $1)
        }
    ) {
        self.source = source
        self.transform = transform
        self.makeSink = makeSink
        super.init()
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        let sink = makeSink(transform, downstream)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}

@usableFromInline
final class MapSink<Source, Result>: OperatorSink<Source, Result>, @unchecked Sendable {
    private let transform: (Source) throws -> Result

    @usableFromInline
    init(transform: @escaping (Source) throws -> Result, downstream: Sink<Result>) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        do {
            downstream.next(try transform(element))
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
