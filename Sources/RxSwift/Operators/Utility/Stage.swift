/// What a stage built outside the library does with each subscription's events
/// (`ObservableType.rxStage(_:)`): `next` and `terminate` receive each event, to deliver now or later;
/// `disposed` runs once the source's subscription is disposed; `released` is told when the source let
/// go without ending (a dropped subject), with the closure that releases the chain below, to run now
/// (the default) or after what the stage holds. `package`, for RxInspect's inlinable code.
@usableFromInline
package struct RxStageHandlers<Element> {
    @usableFromInline let next: (Element) -> Void
    @usableFromInline let terminate: (Event<Element>) -> Void
    @usableFromInline let disposed: () -> Void
    @usableFromInline let released: (@escaping () -> Void) -> Void

    @inlinable
    package init(
        next: @escaping (Element) -> Void, terminate: @escaping (Event<Element>) -> Void,
        disposed: @escaping () -> Void, released: @escaping (@escaping () -> Void) -> Void = { $0() }
    ) {
        self.next = next
        self.terminate = terminate
        self.disposed = disposed
        self.released = released
    }
}

extension ObservableType {
    /// A stage that sees every event of each subscription and delivers it when it chooses; unlike
    /// `Observable.create` around a `subscribe`, an undisposed subscription through it is released with
    /// its source (DESIGN.md, "Lifetime"). `makeHandlers` runs per subscription, before the source is
    /// subscribed, with an observer that drops what arrives after the end and holds only the sink.
    @inlinable
    package func rxStage(
        _ makeHandlers: @escaping (AnyObserver<Element>) -> RxStageHandlers<Element>
    ) -> Observable<Element> {
        StageObservable(source: asObservable(), makeHandlers: makeHandlers)
    }
}

@usableFromInline
final class StageObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let makeHandlers: (AnyObserver<Element>) -> RxStageHandlers<Element>

    @usableFromInline
    init(source: Observable<Element>, makeHandlers: @escaping (AnyObserver<Element>) -> RxStageHandlers<Element>) {
        self.source = source
        self.makeHandlers = makeHandlers
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let output = StageOutputSink(downstream: downstream)
        let handlers = makeHandlers(AnyObserver(sink: output))
        let subscription = source.subscribe(sink: StageInputSink(handlers: handlers, output: output))
        let disposed = handlers.disposed
        output.setUpstream(
            Disposables.create {
                subscription.dispose()
                disposed()
            })
        return output.asDisposable
    }
}

/// Hands each event to the stage's handlers, which deliver through ``StageOutputSink``; a separate
/// sink, so the output holds only downstream and the upstream subscription (no cycle).
final class StageInputSink<Element>: Sink<Element>, @unchecked Sendable {
    private let handlers: RxStageHandlers<Element>
    private let output: StageOutputSink<Element>

    init(handlers: RxStageHandlers<Element>, output: StageOutputSink<Element>) {
        self.handlers = handlers
        self.output = output
    }

    override func next(_ element: Element) {
        handlers.next(element)
    }

    override func terminate(_ termination: Termination) {
        handlers.terminate(termination.event())
    }

    /// The source let go: so does the rest of the chain (what the handlers hold is theirs to drop).
    override func sourceGone() {
        handlers.released { [output] in output.sourceGone() }
    }
}

/// Delivers what the handlers pass on, dropping what arrives after the end or the disposal.
final class StageOutputSink<Element>: ForwardingSink<Element>, @unchecked Sendable {}
