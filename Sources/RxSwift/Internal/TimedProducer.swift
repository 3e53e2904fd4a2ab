/// The shared shape of the time-based operators' observables (`debounce`, `throttle`, `delay`,
/// `delaySubscription`, `skip(_:scheduler:)`, `take(for:scheduler:)`, `timeout`, `buffer`,
/// `window`): one source, a time span and the scheduler that runs the timers.
///
/// Subclasses override only `subscribe(sink:)` (and add their own parameters).
class TimedProducer<SourceElement, Element>: Observable<Element>, @unchecked Sendable {
    let source: Observable<SourceElement>
    let dueTime: RxTimeInterval
    let scheduler: SchedulerType

    init(source: Observable<SourceElement>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init()
    }
}
