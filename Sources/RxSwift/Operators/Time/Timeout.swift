import Synchronization

extension ObservableType {
    /// Errors with `RxError.timeout` if the source does not emit within `dueTime` of the subscription,
    /// or of its previous element.
    ///
    /// Each element restarts the timer after it was delivered. The timer runs on `scheduler`; the
    /// timeout error is delivered there, after which the source is disposed. The source's terminal
    /// event passes through and cancels the timer. When an element and the timer meet (on a
    /// `TestScheduler`: at the same tick), whichever comes first wins, as in RxSwift: a hot source's
    /// element that was scheduled before the timer beats it; a cold source's element scheduled after
    /// it loses. Disposing cancels the timer and disposes the source.
    ///
    /// - Parameters:
    ///   - dueTime: The longest time allowed before the first element and between two elements.
    ///   - scheduler: Runs the timer.
    /// - Returns: The source's events, or `RxError.timeout` when it is too slow.
    ///
    /// RxJS: `timeout(dueTime)`; Combine: `timeout(_:scheduler:customError:)`.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TimeoutObservable(source: asObservable(), dueTime: dueTime, other: nil, scheduler: scheduler)
    }

    /// Switches to `other` if the source does not emit within `dueTime` of the subscription, or of
    /// its previous element.
    ///
    /// On a timeout, `other` is subscribed on `scheduler` (the timer's thread), then the source is
    /// disposed; from then on `other`'s events are delivered, including its terminal event.
    /// Otherwise as ``timeout(_:scheduler:)``.
    ///
    /// - Parameters:
    ///   - dueTime: The longest time allowed before the first element and between two elements.
    ///   - other: The sequence to continue with after a timeout.
    ///   - scheduler: Runs the timer.
    /// - Returns: The source's events, or, after a timeout, those of `other`.
    ///
    /// RxJS: `timeout({ each: dueTime, with: () => other })`.
    public func timeout<Source: ObservableConvertibleType>(
        _ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType
    ) -> Observable<Element> where Element == Source.Element {
        TimeoutObservable(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

final class TimeoutObservable<Element>: TimedProducer<Element, Element>, @unchecked Sendable {
    private let other: Observable<Element>?

    init(source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>?, scheduler: SchedulerType) {
        self.other = other
        super.init(source: source, dueTime: dueTime, scheduler: scheduler)
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = TimeoutSink(dueTime: dueTime, other: other, scheduler: scheduler, downstream: downstream)
        sink.run(source)
        return sink.asDisposable
    }
}

/// Thread-safety: elements arrive on the source's thread while timers fire on the scheduler; the
/// timer generation (`timerID`), the `switched` flag, the pending timer and the fallback's sink are
/// guarded by `lock`. Every decision is taken under the lock and acted on after it: an element or
/// terminal event takes a new generation (so that a timer of an older one loses), a timer wins only
/// if its generation is still current, and after it won the source's events are dropped.
final class TimeoutSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let dueTime: RxTimeInterval
    private let other: Observable<Element>?
    private let scheduler: SchedulerType
    /// The source's subscription: disposed on its own when the timer wins.
    private let sourceSubscription = SingleAssignmentDisposable()
    private let lock = Mutex<Void>(())
    private var timerID = 0
    private var switched = false
    private var stopped = false
    private var timer: Disposable?
    private var otherSink: TakeOverSink<Element>?

    init(dueTime: RxTimeInterval, other: Observable<Element>?, scheduler: SchedulerType, downstream: Sink<Element>) {
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    func run(_ source: Observable<Element>) {
        setUpstream(sourceSubscription)
        // The first timer is scheduled before the source is subscribed, as in RxSwift.
        startTimer(0)
        sourceSubscription.setDisposable(source.subscribe(sink: self))
    }

    override func next(_ element: Element) {
        let id: Int? = lock.locked {
            if switched { return nil }
            timerID &+= 1
            return timerID
        }
        guard let id else { return }
        forward(element)
        startTimer(id)
    }

    override func terminate(_ termination: Termination) {
        let wins: Bool = lock.locked {
            if switched { return false }
            timerID &+= 1
            return true
        }
        if wins { forwardTermination(termination) }
    }

    private func startTimer(_ id: Int) {
        guard isForwarding else { return }
        let scheduled = scheduler.scheduleRelative(id, dueTime: dueTime) { [self] id in
            timerFired(id)
            return Disposables.create()
        }
        let (previous, keep): (Disposable?, Bool) = lock.locked {
            // A timer whose generation is over (or that already fired) needs no keeping.
            if stopped || id != timerID || switched { return (nil, false) }
            defer { timer = scheduled }
            return (timer, true)
        }
        previous?.dispose()
        if !keep { scheduled.dispose() }
    }

    private func timerFired(_ id: Int) {
        let (won, otherSink): (Bool, TakeOverSink<Element>?) = lock.locked {
            if stopped || switched || id != timerID { return (false, nil) }
            switched = true
            timer = nil
            guard other != nil else { return (true, nil) }
            let sink = TakeOverSink(parent: self)
            self.otherSink = sink
            return (true, sink)
        }
        guard won else { return }
        if let otherSink, let other {
            otherSink.subscribeLater(to: other)
            sourceSubscription.dispose()
        } else {
            forwardTermination(.error(RxError.timeout))
        }
    }

    override func disposeResources() {
        let (timer, otherSink): (Disposable?, TakeOverSink<Element>?) = lock.locked {
            stopped = true
            defer {
                self.timer = nil
                self.otherSink = nil
            }
            return (self.timer, self.otherSink)
        }
        timer?.dispose()
        otherSink?.dispose()
    }
}
