extension ObservableType {
    /// Calls `observableFactory` for each subscription and subscribes to the sequence it returns.
    /// A throwing factory gives an error event. RxJS: `defer`; Combine: `Deferred`.
    public static func deferred(
        _ observableFactory: @escaping () throws -> Observable<Element>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let observableFactory =
            isolation == nil
            ? observableFactory
            : rxIsolationChecked(observableFactory, isolation, "deferred", callerFileID, callerLine)
        return DeferredObservable(observableFactory)
    }
}

final class DeferredObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let factory: () throws -> Observable<Element>

    init(_ factory: @escaping () throws -> Observable<Element>) {
        self.factory = factory
        super.init()
    }

    override func subscribe(sink: Sink<Element>) -> Disposable {
        let source: Observable<Element>
        do {
            source = try factory()
        } catch {
            sink.terminate(.error(error))
            return Disposables.create()
        }
        return source.subscribe(sink: sink)
    }
}
