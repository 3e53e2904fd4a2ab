/// What a stage built outside the library does with each subscription's events (see
/// `ObservableType.rxStage(_:)`): `next` and `terminate` receive each event, to deliver to the
/// subscription's observer now or later; `disposed` runs once the source's subscription is disposed;
/// `released` is told when the source let go of the subscription without ending it (a dropped
/// subject), with the closure that releases the chain below, to run now or after what the stage
/// holds for that subscription (the default runs it now).
///
/// For the package's own modules (RxInspect's `inspect`): `package`, so that their inlinable code
/// may use it and applications never see it.
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
    /// A stage that sees every event of each subscription and delivers it when it chooses, built the
    /// way the library's own operators are: a subscription through it that nobody disposes is released
    /// with its source (the Contracts article), which `Observable.create` around a `subscribe` cannot promise (its
    /// closure might keep its observer). `makeHandlers` runs per subscription, before the source is
    /// subscribed, with the subscription's observer.
    ///
    /// That observer delivers downstream and drops what arrives after the terminal event or the
    /// disposal; holding it keeps the subscription's sink, not the source.
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

/// The sink the source delivers to: hands each event to the stage's handlers, which deliver through
/// ``StageOutputSink``. Apart from that sink so that there is no cycle: the source holds this one, this
/// one the handlers and the output (the handlers hold the output too), and the output only what is
/// downstream and its upstream subscription.
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

/// Delivers what the stage's handlers pass on, guarded as any operator sink: nothing after the
/// terminal event or the disposal.
final class StageOutputSink<Element>: ForwardingSink<Element>, @unchecked Sendable {}
