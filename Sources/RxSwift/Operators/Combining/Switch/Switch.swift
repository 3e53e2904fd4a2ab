extension ObservableType {
    /// Maps each element to a sequence and mirrors only the most recent one: a new source element
    /// disposes the previous inner subscription, then subscribes the new sequence.
    ///
    /// Elements of an inner sequence that is no longer the latest are dropped, even when they race
    /// with the switch on another thread. Completes when the source has completed and the latest
    /// inner sequence has completed (the source's subscription ends when it completes). An error from
    /// the source, the latest inner sequence or `selector` is delivered and disposes everything; an
    /// error of a superseded inner sequence is dropped. No scheduler is used.
    ///
    /// - Parameter selector: Maps a source element to the sequence to mirror.
    /// - Returns: The elements of the latest inner sequence.
    ///
    /// RxJS: `switchMap`; Combine: `map(_:).switchToLatest()`.
    @inlinable
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source
    ) -> Observable<Source.Element> {
        SwitchObservable(source: asObservable()) { try selector($0).asObservable() }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Mirrors the most recent inner sequence this sequence emitted; see ``flatMapLatest(_:)``.
    ///
    /// - Returns: The elements of the latest inner sequence.
    ///
    /// RxJS: `switchAll`; Combine: `switchToLatest()`.
    @inlinable
    public func switchLatest() -> Observable<Element.Element> {
        SwitchObservable(source: asObservable()) { $0.asObservable() }
    }
}

/// Built by inlinable code, so that making the operator instantiates no generic class at run time;
/// it makes its sinks through `makeSink`, a closure written where the element types are concrete
/// (see ``MergeObservable``).
@usableFromInline
final class SwitchObservable<SourceElement, Inner>: Observable<Inner>, @unchecked Sendable {
    @usableFromInline
    typealias SinkFactory = (
        @escaping (SourceElement) throws -> Observable<Inner>, Sink<Inner>
    ) -> SwitchSink<SourceElement, Inner>

    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Observable<Inner>
    private let makeSink: SinkFactory

    @usableFromInline
    init(
        source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Observable<Inner>,
        makeSink: @escaping SinkFactory = { SwitchSink(selector: $0, downstream: $1) }
    ) {
        self.source = source
        self.selector = selector
        self.makeSink = makeSink
        super.init()
    }

    override func subscribe(sink downstream: Sink<Inner>) -> Disposable {
        let sink = makeSink(selector, downstream)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}
