extension ObservableType {
    /// Drops every element and passes on only how the source ends.
    ///
    /// Completes and errors when the source does. Returns `Observable<Never>`, as RxSwift 6 does (RxSwift
    /// 5 returned `Completable`); `asCompletable()` turns it into a `Completable`. No scheduler; no lock
    /// or allocation per element.
    ///
    /// RxJS: `ignoreElements`; Combine: `ignoreOutput()`.
    public func ignoreElements() -> Observable<Never> {
        IgnoreElementsObservable(source: asObservable())
    }
}

final class IgnoreElementsObservable<Element>: Observable<Never>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
        super.init()
    }

    override func subscribe(sink downstream: Sink<Never>) -> Disposable {
        return IgnoreElementsSink<Element>(downstream: downstream).subscribed(to: source)
    }
}

final class IgnoreElementsSink<Element>: OneSourceSink<Element, Never>, @unchecked Sendable {
    override func next(_ element: Element) {}

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
