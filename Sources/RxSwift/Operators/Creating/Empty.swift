extension ObservableType {
    /// A sequence that completes at once, with no elements. RxJS: `EMPTY`; Combine: `Empty`.
    public static func empty() -> Observable<Element> {
        EmptyObservable()
    }

    /// A sequence that never emits and never terminates. RxJS: `NEVER`; Combine: `Empty(completeImmediately: false)`.
    public static func never() -> Observable<Element> {
        NeverObservable()
    }

    /// A sequence that terminates at once with `error`. RxJS: `throwError`; Combine: `Fail`.
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        ErrorObservable(error: error)
    }
}

final class EmptyObservable<Element>: Observable<Element>, @unchecked Sendable {
    override var isConstantSource: Bool { true }

    override func deliverConstant(_ next: (Element) -> Void) -> Termination? {
        .completed
    }

    override func subscribe(sink: Sink<Element>) -> Disposable {
        sink.terminate(.completed)
        return Disposables.create()
    }
}

final class NeverObservable<Element>: Observable<Element>, @unchecked Sendable {
    override func subscribe(sink: Sink<Element>) -> Disposable {
        Disposables.create()
    }
}

final class ErrorObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let error: Swift.Error

    init(error: Swift.Error) {
        self.error = error
    }

    override var isConstantSource: Bool { true }

    override func deliverConstant(_ next: (Element) -> Void) -> Termination? {
        .error(error)
    }

    override func subscribe(sink: Sink<Element>) -> Disposable {
        sink.terminate(.error(error))
        return Disposables.create()
    }
}
