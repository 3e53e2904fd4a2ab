extension ObservableType {
    /// Subscribes to the source (and disposes that subscription) on `scheduler`. Events are delivered
    /// wherever the source produces them; use ``observe(on:)`` to move delivery.
    /// RxJS: `subscribeOn`; Combine: `subscribe(on:)`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOnObservable(source: asObservable(), scheduler: scheduler)
    }

    /// Deprecated spelling of ``subscribe(on:)``.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

final class SubscribeOnObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
        super.init()
        needsTrampoline = source.needsTrampoline || scheduler is CurrentThreadScheduler
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = ForwardingSink(downstream: downstream)
        let source = self.source
        let scheduler = self.scheduler
        sink.setUpstream(
            scheduler.schedule(()) { _ in
                ScheduledDisposable(scheduler: scheduler, disposable: source.subscribe(sink: sink))
            })
        return sink
    }
}
