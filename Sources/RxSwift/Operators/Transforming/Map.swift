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

/// Inlinable, with the sink's type stored, so that building the operator and subscribing to it
/// instantiate no generic class at run time (see "Performance").
@usableFromInline
final class MapObservable<Source, Result>: Observable<Result>, @unchecked Sendable {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result
    private let sinkType: MapSink<Source, Result>.Type

    @inlinable
    convenience init(source: Observable<Source>, transform: @escaping (Source) throws -> Result) {
        self.init(source: source, transform: transform, sinkType: MapSink<Source, Result>.self)
    }

    @usableFromInline
    init(
        source: Observable<Source>, transform: @escaping (Source) throws -> Result,
        sinkType: MapSink<Source, Result>.Type
    ) {
        self.source = source
        self.transform = transform
        self.sinkType = sinkType
        super.init()
        needsTrampoline = source.needsTrampoline
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        let sink = sinkType.init(transform: transform, downstream: downstream)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink
    }
}

// Not `final`: the compiler would then build the sink from its static type, looking its generic
// metadata up at run time, instead of from the stored `sinkType`.
@usableFromInline
class MapSink<Source, Result>: OperatorSink<Source, Result>, @unchecked Sendable {
    private let transform: (Source) throws -> Result

    required init(transform: @escaping (Source) throws -> Result, downstream: Sink<Result>) {
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
