extension ObservableType {
    /// The source as a ``Single``: its one element when it completes.
    ///
    /// A second element fails the Single with `RxError.moreThanOneElement` at once (and disposes the
    /// source); completing without an element fails it with `RxError.noElements`. The element is
    /// delivered when the source completes, not when it arrives. RxSwift: the same.
    public func asSingle() -> Single<Element> {
        PrimitiveSequence(raw: AsSingleObservable(source: asObservable(), allowsEmpty: false))
    }

    /// The source as a ``Maybe``: its element (if any) when it completes.
    ///
    /// A second element fails the Maybe with `RxError.moreThanOneElement` at once; completing
    /// without an element completes the Maybe. RxSwift: the same.
    public func asMaybe() -> Maybe<Element> {
        PrimitiveSequence(raw: AsSingleObservable(source: asObservable(), allowsEmpty: true))
    }

    /// The source's first element, or `nil` if it completes without one, as a ``Single``; the source
    /// is disposed at the first element. RxSwift 6: the same (`Single<Element?>`).
    public func first() -> Single<Element?> {
        PrimitiveSequence(raw: take(1).map { Optional($0) }.ifEmpty(default: nil))
    }

    /// Every element, in an array delivered when the source completes, as a ``Single``. RxSwift 6:
    /// the same (`Single<[Element]>`).
    public func toArray() -> Single<[Element]> {
        PrimitiveSequence(raw: ToArrayObservable(source: asObservable()))
    }
}

extension ObservableType where Element == Never {
    /// The source, which has no elements, as a ``Completable``: it completes or errors when the source
    /// does.
    ///
    /// Only for `Observable<Never>`, as in RxSwift 6: drop the elements of any other sequence first
    /// with ``ObservableType/ignoreElements()`` (`source.ignoreElements().asCompletable()`). A
    /// `createColdObservable([.completed(20)]).asCompletable()` therefore has `Never` elements.
    public func asCompletable() -> Completable {
        PrimitiveSequence(raw: asObservable())
    }
}

final class AsSingleObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let allowsEmpty: Bool

    init(source: Observable<Element>, allowsEmpty: Bool) {
        self.source = source
        self.allowsEmpty = allowsEmpty
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return AsSingleSink(allowsEmpty: allowsEmpty, downstream: downstream).subscribed(to: source)
    }
}

/// Thread-safety: `element` is touched only by the source's serialized calls.
final class AsSingleSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let allowsEmpty: Bool
    /// Boxed: the per-element path handles a class reference, not an `Optional` of a generic type.
    @exclusivity(unchecked) private var element: TwoSourceBox<Element>?

    init(allowsEmpty: Bool, downstream: Sink<Element>) {
        self.allowsEmpty = allowsEmpty
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        if self.element != nil {
            forwardTermination(.error(RxError.moreThanOneElement))
            return
        }
        self.element = TwoSourceBox(element)
    }

    override func terminate(_ termination: Termination) {
        guard case .completed = termination else {
            forwardTermination(termination)
            return
        }
        if let element {
            forward(element.value)
            forwardTermination(.completed)
        } else {
            forwardTermination(allowsEmpty ? .completed : .error(RxError.noElements))
        }
    }
}

final class ToArrayObservable<Element>: Observable<[Element]>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
        super.init()
    }

    override func subscribe(sink downstream: Sink<[Element]>) -> Disposable {
        return ToArraySink(downstream: downstream).subscribed(to: source)
    }
}

/// Thread-safety: `elements` is touched only by the source's serialized calls.
final class ToArraySink<Element>: OneSourceSink<Element, [Element]>, @unchecked Sendable {
    @exclusivity(unchecked) private var elements: [Element] = []

    override func next(_ element: Element) {
        if isForwarding { elements.append(element) }
    }

    override func terminate(_ termination: Termination) {
        if case .completed = termination {
            let result = elements
            elements = []
            forward(result)
        }
        forwardTermination(termination)
    }
}
