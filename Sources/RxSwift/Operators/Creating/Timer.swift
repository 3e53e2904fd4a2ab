extension ObservableType where Element: RxAbstractInteger {
    /// Emits 0, 1, 2, … every `period` on `scheduler`, forever. RxJS: `interval`.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TimerObservable(dueTime: period, period: period, scheduler: scheduler)
    }

    /// Emits 0 after `dueTime`, then completes; with a `period`, emits 1, 2, … every `period` after
    /// that, forever. Runs on `scheduler`. RxJS: `timer`.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType)
        -> Observable<Element>
    {
        TimerObservable(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

final class TimerObservable<Element: RxAbstractInteger>: Observable<Element>, @unchecked Sendable {
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?
    private let scheduler: SchedulerType

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = SourceSink(downstream: downstream)
        if let period {
            sink.setUpstream(
                scheduler.schedulePeriodic(Element(0), startAfter: dueTime, period: period) { count in
                    sink.forward(count)
                    return count &+ 1
                })
        } else {
            sink.setUpstream(
                scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                    sink.forward(0)
                    sink.forwardTermination(.completed)
                    return Disposables.create()
                })
        }
        return sink.asDisposable
    }
}
