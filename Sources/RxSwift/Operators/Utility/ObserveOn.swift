import Synchronization

extension ObservableType {
    /// Delivers every event on `scheduler`, in order.
    ///
    /// Each event is delivered by its own scheduled run, as in RxSwift: on a `TestScheduler` every
    /// event moves one tick later than the one before it when they queue up (`just(1)` subscribed at
    /// 200 gives `next(201)`, `completed(202)`). On a ``SerialDispatchQueueScheduler`` (including
    /// `MainScheduler`) each event is one block on the queue, so events interleave with other work on
    /// that queue in the order they were emitted; `MainScheduler.instance` delivers at once when
    /// called on the main thread with nothing queued. On other schedulers the next event is
    /// scheduled when the previous one was delivered, so delivery is never concurrent. Terminal
    /// events are delivered on the scheduler too; upstream is disposed after the terminal event was
    /// delivered. Disposal drops whatever is still queued.
    ///
    /// RxJS: `observeOn`; Combine: `receive(on:)`.
    @inlinable
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        if let serial = scheduler as? SerialDispatchQueueScheduler {
            return ObserveOnSerialDispatchQueueObservable(source: asObservable(), scheduler: serial)
        }
        return ObserveOnObservable(source: asObservable(), scheduler: scheduler)
    }

    /// Deprecated spelling of ``observe(on:)``.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

/// An event waiting for delivery on the scheduler.
enum ObserveOnItem<Element> {
    case next(Element)
    case terminate(Termination)
    /// The source let go: told downstream after the events queued before it.
    case sourceGone
}

/// Made by inlinable code (DESIGN.md, "The hot path").
@usableFromInline
final class ObserveOnObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType
    private let makeSink: (ImmediateSchedulerType, Sink<Element>) -> ObserveOnSink<Element>

    @usableFromInline
    init(
        source: Observable<Element>, scheduler: ImmediateSchedulerType,
        makeSink: @escaping (ImmediateSchedulerType, Sink<Element>) -> ObserveOnSink<Element> = {
            ObserveOnSink(scheduler: $0, downstream: $1)
        }
    ) {
        self.source = source
        self.scheduler = scheduler
        self.makeSink = makeSink
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return makeSink(scheduler, downstream).subscribed(to: source)
    }
}

/// Queues events and delivers one per scheduled run; at most one run is pending or running.
///
/// Thread-safety: the queue, `running` and the pending run's disposable are guarded by `lock`;
/// delivery happens on the scheduler, outside the lock.
@usableFromInline
final class ObserveOnSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let scheduler: ImmediateSchedulerType
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var queue = Queue<ObserveOnItem<Element>>()
    @exclusivity(unchecked) private var running = false
    /// Numbers the runs so that only the latest one's disposable is stored.
    @exclusivity(unchecked) private var runTicket = 0
    @exclusivity(unchecked) private var scheduledRun: Disposable?

    @usableFromInline
    init(scheduler: ImmediateSchedulerType, downstream: Sink<Element>) {
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        enqueue(.next(element))
    }

    override func terminate(_ termination: Termination) {
        enqueue(.terminate(termination))
    }

    /// Nothing more will be queued: downstream hears of it after the queued events, so the chain below is
    /// released with the source and loses nothing.
    override func forwardSourceGone() {
        let now: Bool = lock.locked {
            if isDisposed { return false }
            if !running && queue.isEmpty { return true }
            // A run is pending or running: it reaches the marker after the queued events.
            queue.enqueue(.sourceGone)
            return false
        }
        if now { letGoOfDownstream() }
    }

    private func enqueue(_ item: ObserveOnItem<Element>) {
        let ticket: Int? = lock.locked {
            if isDisposed { return nil }
            queue.enqueue(item)
            if running { return nil }
            running = true
            return nextTicketLocked()
        }
        if let ticket { scheduleRun(ticket) }
    }

    private func nextTicketLocked() -> Int {
        runTicket &+= 1
        return runTicket
    }

    private func scheduleRun(_ ticket: Int) {
        let run = scheduler.schedule(self) { sink in
            sink.run(ticket)
            return Disposables.create()
        }
        let disposeNow: Bool = lock.locked {
            if isDisposed { return true }
            // An immediate scheduler may have run (and rescheduled) before we get here.
            if runTicket == ticket && running { scheduledRun = run }
            return false
        }
        if disposeNow { run.dispose() }
    }

    private func run(_ ticket: Int) {
        let item: ObserveOnItem<Element>? = lock.locked {
            if runTicket == ticket { scheduledRun = nil }
            guard !isDisposed, let item = queue.dequeue() else {
                running = false
                return nil
            }
            return item
        }
        switch item {
        case .none:
            return
        case .next(let element):
            forward(element)
        case .terminate(let termination):
            forwardTermination(termination)
            return
        case .sourceGone:
            // The last item: nothing is queued after it, so the run ends below.
            letGoOfDownstream()
        }
        let nextTicket: Int? = lock.locked {
            if isDisposed || queue.isEmpty {
                running = false
                return nil
            }
            return nextTicketLocked()
        }
        if let nextTicket { scheduleRun(nextTicket) }
    }

    override func disposeResources() {
        let (run, dropped) = lock.locked { () -> (Disposable?, Queue<ObserveOnItem<Element>>) in
            defer {
                scheduledRun = nil
                queue = Queue()
            }
            return (scheduledRun, queue)
        }
        // The dropped elements are released here, after unlocking: their deinitializers may run code.
        withExtendedLifetime(dropped) {}
        run?.dispose()
    }
}

/// `observe(on:)` for serial dispatch queues, as RxSwift's: one block per event, no lock or queue.
@usableFromInline
final class ObserveOnSerialDispatchQueueObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let scheduler: SerialDispatchQueueScheduler
    private let makeSink: (SerialDispatchQueueScheduler, Sink<Element>) -> ObserveOnSerialDispatchQueueSink<Element>

    @usableFromInline
    init(
        source: Observable<Element>, scheduler: SerialDispatchQueueScheduler,
        makeSink: @escaping (SerialDispatchQueueScheduler, Sink<Element>) -> ObserveOnSerialDispatchQueueSink<Element> =
            {
                ObserveOnSerialDispatchQueueSink(scheduler: $0, downstream: $1)
            }
    ) {
        self.source = source
        self.scheduler = scheduler
        self.makeSink = makeSink
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return makeSink(scheduler, downstream).subscribed(to: source)
    }
}

/// Thread-safety: upstream calls are serialized, so the blocks reach the serial queue in order and
/// run one at a time; `forward` and `forwardTermination` drop what arrives after disposal.
@usableFromInline
final class ObserveOnSerialDispatchQueueSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let scheduler: SerialDispatchQueueScheduler

    @usableFromInline
    init(scheduler: SerialDispatchQueueScheduler, downstream: Sink<Element>) {
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        if scheduler.beginRunningInline() {
            forward(element)
            scheduler.endRunningInline()
            return
        }
        enqueue(element)
    }

    @inline(never)
    private func enqueue(_ element: Element) {
        scheduler.enqueue { [self] in forward(element) }
    }

    override func terminate(_ termination: Termination) {
        guard isForwarding else { return }
        scheduler.enqueue { [self] in forwardTermination(termination) }
    }

    /// Told downstream after the blocks already on the queue (see ``ObserveOnSink``).
    override func forwardSourceGone() {
        scheduler.enqueue { [self] in letGoOfDownstream() }
    }
}
