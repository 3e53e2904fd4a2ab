extension ObservableType {
    /// Combines each element with `obj`, held weakly: `resultSelector` receives a strong reference
    /// for the duration of the call.
    ///
    /// When `obj` is gone by the time an element arrives, the sequence completes (without calling
    /// `resultSelector`) and disposes the source, as in RxSwift. Errors and completes when the source
    /// does. No scheduler; no lock or allocation per element. RxJS/Combine: none (`[weak self]`).
    ///
    /// Beware of operators that keep elements (`share(replay:)`, `ReplaySubject`): a kept result
    /// holds `obj` strongly.
    ///
    /// - Parameters:
    ///   - obj: The object to hold weakly.
    ///   - resultSelector: Combines the object and an element.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The results of `resultSelector`.
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Out> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "withUnretained(resultSelector:)", callerFileID, callerLine)
        return WithUnretainedObservable(source: asObservable(), object: obj, resultSelector: resultSelector)
    }

    /// Pairs each element with `obj`, held weakly; completes when `obj` is gone by the time an
    /// element arrives. See ``withUnretained(_:resultSelector:isolation:callerFileID:callerLine:)``.
    ///
    /// - Parameter obj: The object to hold weakly.
    /// - Returns: `(object, element)` tuples.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Observable<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

final class WithUnretainedObservable<Object: AnyObject, Source, Out>: Observable<Out>, @unchecked Sendable {
    private let source: Observable<Source>
    private weak var object: Object?
    private let resultSelector: (Object, Source) -> Out

    init(source: Observable<Source>, object: Object, resultSelector: @escaping (Object, Source) -> Out) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
        super.init()
    }

    override func subscribe(sink downstream: Sink<Out>) -> Disposable {
        return WithUnretainedSink(object: object, resultSelector: resultSelector, downstream: downstream).subscribed(
            to: source)
    }
}

final class WithUnretainedSink<Object: AnyObject, Source, Out>: OneSourceSink<Source, Out>, @unchecked Sendable {
    private weak var object: Object?
    private let resultSelector: (Object, Source) -> Out

    init(object: Object?, resultSelector: @escaping (Object, Source) -> Out, downstream: Sink<Out>) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        guard let object else {
            forwardTermination(.completed)
            return
        }
        downstream.next(resultSelector(object, element))
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
