extension ObservableType {
    /// Creates a resource for each subscription, subscribes to the sequence built from it, and disposes
    /// the resource when the subscription ends (terminal event, disposal, or the release of its
    /// sources with the subscription undisposed: see "Contracts", "Lifetime"), after the upstream
    /// subscription. A throwing factory gives an error event, after which a resource already created
    /// is disposed. RxJS: `using`.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let resourceFactory =
            isolation == nil
            ? resourceFactory
            : rxIsolationChecked(resourceFactory, isolation, "using", callerFileID, callerLine)
        let observableFactory =
            isolation == nil
            ? observableFactory
            : rxIsolationChecked(
                observableFactory, isolation, "using(observableFactory:)", callerFileID, callerLine)
        return UsingObservable(resourceFactory: resourceFactory, observableFactory: observableFactory)
    }
}

final class UsingObservable<Element, Resource: Disposable>: Observable<Element>, @unchecked Sendable {
    private let resourceFactory: () throws -> Resource
    private let observableFactory: (Resource) throws -> Observable<Element>

    init(
        resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) {
        self.resourceFactory = resourceFactory
        self.observableFactory = observableFactory
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        var resource: Resource?
        do {
            let created = try resourceFactory()
            resource = created
            let source = try observableFactory(created)
            let sink = ForwardingSink(downstream: downstream)
            sink.setUpstream(Disposables.create(source.subscribe(sink: sink), created))
            return sink.asDisposable
        } catch {
            // As a terminal event does on the normal path: downstream hears the error first.
            downstream.terminate(.error(error))
            resource?.dispose()
            return Disposables.create()
        }
    }
}
