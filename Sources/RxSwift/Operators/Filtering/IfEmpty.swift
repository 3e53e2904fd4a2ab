extension ObservableType {
    /// Passes on the source's elements; if it completes without any, emits `default` first.
    ///
    /// `default` and the completion are delivered when the source completes, on its thread. Errors
    /// are forwarded (no default is emitted). No scheduler; no lock or allocation per element.
    ///
    /// RxJS: `defaultIfEmpty`; Combine: `replaceEmpty(with:)`.
    public func ifEmpty(default: Element) -> Observable<Element> {
        DefaultIfEmptyObservable(source: asObservable(), defaultElement: `default`)
    }

    /// Passes on the source's elements; if it completes without any, continues with `other`.
    ///
    /// `other` is subscribed when the source completes empty (so a cold `other` starts then), and its
    /// events end the sequence. Errors of the source are forwarded and `other` is not subscribed. As in
    /// RxSwift, the subscription to the completed source is kept until the whole sequence ends or is
    /// disposed; disposal disposes both. No scheduler of its own.
    ///
    /// RxJS: none (`defaultIfEmpty` takes a value only); Combine: none.
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        SwitchIfEmptyObservable(source: asObservable(), other: other)
    }
}

final class DefaultIfEmptyObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let defaultElement: Element

    init(source: Observable<Element>, defaultElement: Element) {
        self.source = source
        self.defaultElement = defaultElement
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return DefaultIfEmptySink(defaultElement: defaultElement, downstream: downstream).subscribed(to: source)
    }
}

final class DefaultIfEmptySink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let defaultElement: Element
    @exclusivity(unchecked) private var isEmpty = true

    init(defaultElement: Element, downstream: Sink<Element>) {
        self.defaultElement = defaultElement
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        isEmpty = false
        downstream.next(element)
    }

    override func terminate(_ termination: Termination) {
        if case .completed = termination, isEmpty {
            isEmpty = false
            forward(defaultElement)
        }
        forwardTermination(termination)
    }
}

final class SwitchIfEmptyObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let other: Observable<Element>

    init(source: Observable<Element>, other: Observable<Element>) {
        self.source = source
        self.other = other
        super.init()
        // `other` is subscribed from inside this chain's subscription when the source completes
        // synchronously; in a trampoline, a synchronous `other` then emits after the chain is in
        // place, so an early end downstream (`take`) can stop it.
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return SwitchIfEmptySink(other: other, downstream: downstream).subscribed(to: source)
    }
}

/// Thread-safety: `isEmpty` is touched only by upstream's (serialized) calls; the subscription to
/// `other` lives in a `SingleAssignmentDisposable`, which resolves a race with disposal.
final class SwitchIfEmptySink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let other: Observable<Element>
    @exclusivity(unchecked) private var isEmpty = true
    private let otherSubscription = SingleAssignmentDisposable()

    init(other: Observable<Element>, downstream: Sink<Element>) {
        self.other = other
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        isEmpty = false
        downstream.next(element)
    }

    override func terminate(_ termination: Termination) {
        guard case .completed = termination, isEmpty, isForwarding else {
            forwardTermination(termination)
            return
        }
        isEmpty = false
        // Through the public entry point, so that a chain that needs the current-thread trampoline
        // gets one, as every RxSwift subscription does.
        otherSubscription.setDisposable(other.subscribe(SinkObserver(TakeOverSink(parent: self))))
    }

    /// Before switching, its source is all that drives it; after, the other sequence does
    /// (``TakeOverSink``).
    override var releasesWithItsSource: Bool { true }

    override func disposeResources() {
        otherSubscription.dispose()
    }
}
