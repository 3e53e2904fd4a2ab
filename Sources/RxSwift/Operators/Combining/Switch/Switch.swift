extension ObservableType {
    /// Maps each element to a sequence and mirrors only the most recent one: a new source element
    /// disposes the previous inner subscription, then subscribes the new sequence.
    ///
    /// Completes when the source has completed and the latest inner sequence has completed (the
    /// source's subscription ends when it completes). An error from the source, the latest inner
    /// sequence or `selector` is delivered and disposes everything. No scheduler is used.
    ///
    /// Once a switch has returned — the delivery of a source element to this operator; for a source
    /// fed from one thread, its `onNext` — nothing of the inner sequences it replaced is delivered,
    /// even when they send from other threads: not an element they sent that was still waiting for
    /// delivery (it is dropped), not their error. An element of a replaced sequence that another
    /// thread is delivering at that moment is waited for; so is an error the latest sequence sent
    /// before the switch (it ends the result, and nothing is switched to). The wait lasts 20 ms at
    /// most, so a delivery that itself waits for the switching thread (`DispatchQueue.main.sync`
    /// while the main thread switches) slows down instead of deadlocking; past that bound, that one
    /// event can reach the observer after the switch returned. A switch made from inside a delivery,
    /// on the delivering thread, does not wait. RxSwift gives the same guarantee by holding its lock
    /// around every delivery; unlike RxSwift, an element the current inner sequence sends
    /// re-entrantly from inside a delivery is queued, not delivered depth-first, so a switch the
    /// observer makes in the same delivery drops it.
    ///
    /// - Parameters:
    ///   - selector: Maps a source element to the sequence to mirror.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The elements of the latest inner sequence.
    ///
    /// RxJS: `switchMap`; Combine: `map(_:).switchToLatest()`.
    @inlinable
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Source.Element> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMapLatest", callerFileID, callerLine)
        return SwitchObservable(source: asObservable()) { try selector($0).asObservable() }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Mirrors the most recent inner sequence this sequence emitted; see
    /// ``flatMapLatest(_:isolation:callerFileID:callerLine:)->Observable<Source.Element>``.
    ///
    /// - Returns: The elements of the latest inner sequence.
    ///
    /// RxJS: `switchAll`; Combine: `switchToLatest()`.
    @inlinable
    public func switchLatest() -> Observable<Element.Element> {
        SwitchObservable(source: asObservable()) { $0.asObservable() }
    }
}

/// Made by inlinable code; its sinks are made by `makeSink` (DESIGN.md, "The hot path").
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
        return makeSink(selector, downstream).subscribed(to: source)
    }
}
