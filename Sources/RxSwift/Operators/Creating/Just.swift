extension ObservableType {
    /// A sequence of one element that then completes, on the subscribing thread.
    /// RxJS: `of(x)`; Combine: `Just`.
    ///
    /// Inlinable, so that making one (as `flatMap { .just($0) }` does per element) instantiates no
    /// generic class at run time.
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        JustObservable(element: element)
    }

    /// A sequence of one element that then completes, both delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        JustScheduledObservable(element: element, scheduler: scheduler)
    }
}

@usableFromInline
final class JustObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let element: Element

    @usableFromInline
    init(element: Element) {
        self.element = element
    }

    override var isConstantSource: Bool { true }

    override func deliverConstant(_ next: (Element) -> Void) -> Termination? {
        next(element)
        return .completed
    }

    override func subscribe(sink: Sink<Element>) -> Disposable {
        sink.next(element)
        sink.terminate(.completed)
        return Disposables.create()
    }
}

final class JustScheduledObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let element: Element
    private let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = SourceSink(downstream: downstream)
        let scheduler = self.scheduler
        sink.setUpstream(
            scheduler.schedule(element) { element in
                sink.forward(element)
                return scheduler.schedule(()) { _ in
                    sink.forwardTermination(.completed)
                    return Disposables.create()
                }
            })
        return sink.asDisposable
    }
}

/// The sink of a source that has no upstream observable, only scheduled work (its "upstream" is the
/// disposable of that work).
typealias SourceSink<Element> = OperatorSink<Never, Element>
