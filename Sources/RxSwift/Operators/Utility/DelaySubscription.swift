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

final class DelaySubscriptionObservable<Element>: TimedProducer<Element, Element>, @unchecked Sendable {
    override init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        super.init(source: source, dueTime: dueTime, scheduler: scheduler)
        // Nothing is emitted while subscribing; the source is subscribed later, from the scheduler.
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = ForwardingSink(downstream: downstream)
        let source = self.source
        // Held by the sink from the start (not only as the scheduled action's result, which the
        // scheduler stores after the action returned): a synchronous source then learns of an early
        // end downstream while it is still emitting.
        let sourceSubscription = SingleAssignmentDisposable()
        let timer = scheduler.scheduleRelative((), dueTime: dueTime) { _ in
            // As a `subscribe` call from outside would, and as RxSwift does: inside a trampoline.
            CurrentThreadScheduler.trampolined {
                sourceSubscription.setDisposable(source.subscribe(sink: sink))
                return Disposables.create()
            }
        }
        sink.setUpstream(Disposables.create(timer, sourceSubscription))
        return sink.asDisposable
    }
}
