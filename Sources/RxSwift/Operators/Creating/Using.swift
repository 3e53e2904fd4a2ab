extension ObservableType {
    /// Creates a resource for each subscription, subscribes to the sequence built from it, and disposes
    /// the resource when the subscription ends (terminal event or disposal). A throwing factory gives
    /// an error event (and disposes a resource already created).
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        UsingObservable(resourceFactory: resourceFactory, observableFactory: observableFactory)
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
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        var resource: Resource?
        do {
            let created = try resourceFactory()
            resource = created
            let source = try observableFactory(created)
            let sink = CreateSink(downstream: downstream)
            sink.setUpstream(Disposables.create(source.subscribe(sink: sink), created))
            return sink
        } catch {
            resource?.dispose()
            downstream.terminate(.error(error))
            return Disposables.create()
        }
    }
}
