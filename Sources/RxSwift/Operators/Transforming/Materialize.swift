extension ObservableType {
    /// Turns every event of the source, including the terminal one, into an element: `next(x)`
    /// becomes `.next(.next(x))`, and the source's `error` or `completed` becomes one last element
    /// followed by completion.
    ///
    /// Never errors. Disposes the source when it terminates. No scheduler; no lock per element.
    /// RxJS: `materialize`; Combine: none.
    ///
    /// - Returns: The source's events as elements.
    public func materialize() -> Observable<Event<Element>> {
        MaterializeObservable(source: asObservable())
    }
}

extension ObservableType where Element: EventConvertible {
    /// The inverse of ``ObservableType/materialize()``: turns elements that are events back into
    /// events.
    ///
    /// A `next` element is delivered as an element; an `error` or `completed` element ends the
    /// sequence with that event and disposes the source. The source's own error or completion is
    /// forwarded as well. No scheduler; no lock per element. RxJS: `dematerialize`; Combine: none.
    ///
    /// - Returns: The sequence the events describe.
    public func dematerialize() -> Observable<Element.Element> {
        DematerializeObservable(source: asObservable())
    }
}

final class MaterializeObservable<Element>: Observable<Event<Element>>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
        super.init()
    }

    override func subscribe(sink downstream: Sink<Event<Element>>) -> Disposable {
        return MaterializeSink(downstream: downstream).subscribed(to: source)
    }
}

final class MaterializeSink<Element>: OneSourceSink<Element, Event<Element>>, @unchecked Sendable {
    override func next(_ element: Element) {
        forward(.next(element))
    }

    override func terminate(_ termination: Termination) {
        guard isForwarding else { return }
        downstream.next(termination.event())
        forwardTermination(.completed)
    }
}

final class DematerializeObservable<Source: EventConvertible>: Observable<Source.Element>, @unchecked Sendable {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
        super.init()
    }

    override func subscribe(sink downstream: Sink<Source.Element>) -> Disposable {
        return DematerializeSink<Source>(downstream: downstream).subscribed(to: source)
    }
}

final class DematerializeSink<Source: EventConvertible>: OneSourceSink<Source, Source.Element>, @unchecked Sendable {
    override func next(_ element: Source) {
        guard isForwarding else { return }
        switch element.event {
        case .next(let value): downstream.next(value)
        case .error(let error): forwardTermination(.error(error))
        case .completed: forwardTermination(.completed)
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
