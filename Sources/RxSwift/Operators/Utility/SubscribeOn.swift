extension ObservableType {
    /// Subscribes to the source (and disposes that subscription) on `scheduler`. Events are delivered
    /// wherever the source produces them; use ``observe(on:)`` to move delivery.
    /// RxJS: `subscribeOn`; Combine: `subscribe(on:)`.
    ///
    /// A hand-written `ObservableType` (RxTest's testable observables among them) is subscribed
    /// directly, not through ``ObservableConvertibleType/asObservable()``, as RxSwift does: its
    /// subscription then ends when the disposal scheduled on `scheduler` runs, one tick after a terminal
    /// event on a test scheduler.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        if let observable = self as? Observable<Element> {
            return SubscribeOnObservable(scheduler: scheduler) {
                observable.subscribe(sink: $0)
            }
        }
        return SubscribeOnObservable(scheduler: scheduler) { [self] sink in
            subscribe(SinkObserver(sink))
        }
    }

    /// Deprecated spelling of ``subscribe(on:)``.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

final class SubscribeOnObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let subscribeSource: (Sink<Element>) -> Disposable
    private let scheduler: ImmediateSchedulerType

    init(
        scheduler: ImmediateSchedulerType,
        subscribeSource: @escaping (Sink<Element>) -> Disposable
    ) {
        self.subscribeSource = subscribeSource
        self.scheduler = scheduler
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = ForwardingSink(downstream: downstream)
        let subscribeSource = self.subscribeSource
        let scheduler = self.scheduler
        sink.setUpstream(
            scheduler.schedule(()) { _ in
                ScheduledDisposable(scheduler: scheduler, disposable: subscribeSource(sink))
            })
        return sink.asDisposable
    }
}
