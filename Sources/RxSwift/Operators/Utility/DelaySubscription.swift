extension ObservableType {
    /// Subscribes to the source `dueTime` after the subscription, on `scheduler`.
    ///
    /// Events are then delivered as the source produces them (not moved to `scheduler`). Completes
    /// and errors when the source does; disposing before `dueTime` cancels the subscription to the
    /// source. RxJS: `delay` on subscription (`delayWhen(() => timer(…))`); Combine: `delay` on
    /// `Deferred`.
    ///
    /// - Parameters:
    ///   - dueTime: How long to wait before subscribing.
    ///   - scheduler: Runs the timer and the subscription to the source.
    /// - Returns: The source sequence, subscribed late.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DelaySubscriptionObservable(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final class DelaySubscriptionObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init()
        // Nothing is emitted while subscribing; the source is subscribed later, from the scheduler.
        needsTrampoline = false
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = ForwardingSink(downstream: downstream)
        let source = self.source
        sink.setUpstream(
            scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
                // As a `subscribe` call from outside would, and as RxSwift does: a synchronous source
                // runs inside a trampoline, so that an early end downstream can stop it.
                if source.mustSubscribeInTrampoline {
                    return CurrentThreadScheduler.instance.schedule(sink) { source.subscribe(sink: $0) }
                }
                return source.subscribe(sink: sink)
            })
        return sink
    }
}
