import Synchronization

extension ObservableType {
    /// Splits the elements into windows, each an `Observable` of its own: a window is completed and
    /// the next one opened when it holds `count` elements or when `timeSpan` has passed since it was
    /// opened, whichever comes first; the timer runs on `scheduler`.
    ///
    /// The first window is emitted when subscribing; as in RxSwift, a timer that fires closes the
    /// window even when it is empty. A window is hot: subscribe to it when it is emitted to see all
    /// of its elements (it is backed by a ``PublishSubject``). When the source completes or errors,
    /// the open window gets the same terminal event, then the outer sequence does.
    ///
    /// Disposal, as in RxSwift: the source subscription and the timer live as long as the outer
    /// subscription or any subscription to a window does. Disposing the outer subscription stops
    /// emitting windows; subscribers of the open window keep receiving its elements until it
    /// closes. Windows and elements are delivered on the thread of the event that caused them (the
    /// source's, or the scheduler's for a timer), serialized. RxJS: `windowTime(timeSpan, null,
    /// count)`; Combine: none.
    ///
    /// - Parameters:
    ///   - timeSpan: The longest time a window stays open.
    ///   - count: The most elements a window holds (0 or less: no limit, as RxSwift does not check it).
    ///   - scheduler: Runs the timer.
    /// - Returns: A sequence of windows.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType)
        -> Observable<Observable<Element>>
    {
        WindowObservable(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

final class WindowObservable<Element>: TimedProducer<Element, Observable<Element>>, @unchecked Sendable {
    private let count: Int

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.count = count
        super.init(source: source, dueTime: timeSpan, scheduler: scheduler)
    }

    override func subscribe(sink downstream: Sink<Observable<Element>>) -> Disposable {
        let sink = WindowSink(timeSpan: dueTime, count: count, scheduler: scheduler, downstream: downstream)
        sink.run(source)
        return sink.asDisposable
    }
}

/// Thread-safety: the open window, the count, the window number, the timer and the outgoing queue are
/// guarded by `lock`. The timer and the source both close windows through one ``DrainQueue``, so the
/// windows' subjects and downstream see events in order, never concurrently.
final class WindowSink<Element>: OperatorSink<Element, Observable<Element>>, @unchecked Sendable {
    private enum Output {
        case open(PublishSubject<Element>)
        case element(PublishSubject<Element>, Element)
        case close(PublishSubject<Element>)
        case terminate(PublishSubject<Element>, Termination)
    }

    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var subject = PublishSubject<Element>()
    @exclusivity(unchecked) private var elementCount = 0
    /// Numbers the windows; a timer only closes the window it was started for.
    @exclusivity(unchecked) private var windowID = 0
    @exclusivity(unchecked) private var timer: Disposable?
    /// The source subscription and the timer were disposed (every subscription is gone).
    @exclusivity(unchecked) private var released = false
    @exclusivity(unchecked) private var stopped = false
    @exclusivity(unchecked) private var outputs = DrainQueue<Output>()
    private let sourceSubscription = SingleAssignmentDisposable()
    /// Held by the outer subscription and each window subscription; the last to go releases the source
    /// subscription and the timer.
    @exclusivity(unchecked) private var refCount: RefCountDisposable!

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, downstream: Sink<Observable<Element>>) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(downstream: downstream)
        // The closure holds the sink until the count drops to zero; the RefCountDisposable then
        // drops the closure.
        refCount = RefCountDisposable(disposable: Disposables.create { [self] in releaseSubscriptions() })
    }

    func run(_ source: Observable<Element>) {
        setUpstream(refCount)
        var gate: ThrottleGate?
        let drain: Bool = lock.locked { enqueueLocked(.open(subject), gate: &gate) }
        if drain { drainOutputs() }
        gate?.wait()
        startTimer(for: 0)
        sourceSubscription.setDisposable(source.subscribe(sink: self))
    }

    override func next(_ element: Element) {
        var gate: ThrottleGate?
        let (drain, nextWindow): (Bool, Int?) = lock.locked {
            if stopped || released { return (false, nil) }
            var drain = enqueueLocked(.element(subject, element), gate: &gate)
            elementCount &+= 1
            guard elementCount == count else { return (drain, nil) }
            drain = openNextWindowLocked(gate: &gate) || drain
            return (drain, windowID)
        }
        if drain { drainOutputs() }
        gate?.wait()
        if let nextWindow { startTimer(for: nextWindow) }
    }

    override func terminate(_ termination: Termination) {
        var gate: ThrottleGate?
        let drain: Bool = lock.locked {
            if stopped { return false }
            stopped = true
            return enqueueLocked(.terminate(subject, termination), gate: &gate)
        }
        if drain { drainOutputs() }
        gate?.wait()
    }

    /// Schedules the timer that closes window number `id`, unless that window is already closed.
    private func startTimer(for id: Int) {
        let current: Bool = lock.locked { !released && windowID == id }
        guard current else { return }
        let timer = scheduler.scheduleRelative(self, dueTime: timeSpan) { sink in
            sink.timerFired(for: id)
            return Disposables.create()
        }
        let (kept, replaced): (Bool, Disposable?) = lock.locked {
            guard !released, windowID == id else { return (false, nil) }
            defer { self.timer = timer }
            return (true, self.timer)
        }
        replaced?.dispose()
        if !kept { timer.dispose() }
    }

    private func timerFired(for id: Int) {
        var gate: ThrottleGate?
        let drain: Bool? = lock.locked {
            if stopped || released || windowID != id { return nil }
            return openNextWindowLocked(gate: &gate)
        }
        guard let drain else { return }
        if drain { drainOutputs() }
        gate?.wait()
        startTimer(for: id &+ 1)
    }

    /// Closes the open window and opens the next one; returns whether the caller must drain.
    private func openNextWindowLocked(gate: inout ThrottleGate?) -> Bool {
        elementCount = 0
        windowID &+= 1
        let closed = subject
        subject = PublishSubject()
        let drain = enqueueLocked(.close(closed), gate: &gate)
        return enqueueLocked(.open(subject), gate: &gate) || drain
    }

    /// Queues `output`; returns whether the caller must drain the queue (``DrainQueue``).
    private func enqueueLocked(_ output: Output, gate: inout ThrottleGate?) -> Bool {
        outputs.enqueueLocked(output, gate: &gate)
    }

    private func drainOutputs() {
        drain(next: { wakeUp in lock.locked { outputs.nextLocked(wakeUp: &wakeUp) } }) { output in
            switch output {
            case .open(let subject):
                if isForwarding { forward(WindowOfSubject(subject: subject, refCount: refCount)) }
            case .element(let subject, let element):
                subject.onNext(element)
            case .close(let subject):
                subject.on(.completed)
            case .terminate(let subject, let termination):
                subject.on(termination.event())
                forwardTermination(termination)
            }
        }
    }

    private func releaseSubscriptions() {
        let timer: Disposable? = lock.locked {
            released = true
            defer { self.timer = nil }
            return self.timer
        }
        timer?.dispose()
        sourceSubscription.dispose()
    }
}

/// One window as its subscribers see it: the window's subject, plus a hold on the source
/// subscription for as long as the window subscription lasts (RxSwift's `AddRef`).
final class WindowOfSubject<Element>: Observable<Element>, @unchecked Sendable {
    private let subject: PublishSubject<Element>
    private let refCount: RefCountDisposable

    init(subject: PublishSubject<Element>, refCount: RefCountDisposable) {
        self.subject = subject
        self.refCount = refCount
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let hold = refCount.retain()
        let sink = ForwardingSink(downstream: downstream)
        sink.setUpstream(Disposables.create(hold, subject.subscribe(sink: sink)))
        return sink.asDisposable
    }
}
