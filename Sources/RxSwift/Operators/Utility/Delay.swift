import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ObservableType {
    /// Shifts every element and the completion `dueTime` later in time, on `scheduler`; an error is
    /// delivered at once.
    ///
    /// Each event is delivered `dueTime` after it arrived, measured with `scheduler.now`. As in
    /// RxSwift, the delayed events are delivered one per scheduled run: when several are due at the
    /// same time, each after the first is scheduled again with a due time of zero (on a
    /// `TestScheduler`, which simulates processing delay, that is one tick later each). An error
    /// from the source is delivered immediately, dropping the events still waiting, unless a delayed
    /// event is being delivered at that moment: then the error follows it. The source is disposed
    /// as soon as it terminates; disposal cancels whatever is still waiting.
    ///
    /// RxJS: `delay`; Combine: `delay(for:scheduler:)`.
    ///
    /// - Parameters:
    ///   - dueTime: How long to delay each event.
    ///   - scheduler: Runs the timers and delivers the delayed events.
    /// - Returns: The source sequence, shifted in time.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DelayObservable(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final class DelayObservable<Element>: TimedProducer<Element, Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = DelaySink(dueTime: dueTime, scheduler: scheduler, downstream: downstream)
        sink.setUpstream(sink.sourceSubscription)
        sink.sourceSubscription.setDisposable(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}

/// Queues the events with their arrival time; a recursive schedule (the drain) delivers the oldest,
/// then reschedules itself for the next one's due time, until the queue is empty.
///
/// Thread-safety: the queue and flags are guarded by `lock`; delivery happens outside it, and drain
/// runs never overlap. An error arriving while a run delivers (`running`) is delivered by that run.
final class DelaySink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private enum Item {
        case next(Element)
        case completed
    }

    private typealias Entry = (time: RxTime, item: Item)

    private enum Step {
        case deliver(Item)
        case fail(any Swift.Error)
        case reschedule(arrivedAt: RxTime)
        /// Carries the finished drain's disposable out of the lock.
        case idle(Disposable?)
    }

    /// Disposed as soon as the source terminates, as RxSwift does.
    let sourceSubscription = SingleAssignmentDisposable()

    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var front: Entry?
    @exclusivity(unchecked) private var queue = Queue<Entry>()
    /// A drain is scheduled or running.
    @exclusivity(unchecked) private var active = false
    /// A drain is delivering.
    @exclusivity(unchecked) private var running = false
    @exclusivity(unchecked) private var failure: (any Swift.Error)?
    /// Numbers the drains, so only the current one's disposable is kept.
    @exclusivity(unchecked) private var drainTicket = 0
    @exclusivity(unchecked) private var drain: Disposable?
    /// Whether the source let go: once the queue is delivered, the sink is released with it.
    @exclusivity(unchecked) private var isSourceGone = false

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, downstream: Sink<Element>) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        enqueue(.next(element))
    }

    override func terminate(_ termination: Termination) {
        sourceSubscription.dispose()
        switch termination {
        case .completed: enqueue(.completed)
        case .error(let error): fail(error)
        }
    }

    private func enqueue(_ item: Item) {
        let now = scheduler.now
        let ticket: Int? = lock.locked {
            if isDisposed || failure != nil { return nil }
            queue.enqueue((now, item))
            if active { return nil }
            active = true
            drainTicket &+= 1
            return drainTicket
        }
        guard let ticket else { return }
        let drain = scheduler.scheduleRecursiveAfter((), dueTime: dueTime) { [self] _, recurse in
            run { recurse((), $0) }
        }
        let kept: Bool = lock.locked {
            // Not kept when disposed or already idle: an idle drain would keep this sink alive.
            guard !isDisposed, active, drainTicket == ticket else { return false }
            self.drain = drain
            return true
        }
        if !kept { drain.dispose() }
    }

    @inline(never)
    private func fail(_ error: any Swift.Error) {
        let (deliverNow, dropped): (Bool, (Entry?, Queue<Entry>)) = lock.locked {
            if failure != nil { return (false, (nil, Queue())) }
            failure = error
            defer {
                front = nil
                queue = Queue()
            }
            return (!running, (front, queue))
        }
        // Released after unlocking: the elements' deinitializers may run code.
        withExtendedLifetime(dropped) {}
        if deliverNow { forwardTermination(.error(error)) }
    }

    /// One drain run: delivers the oldest event, then reschedules for the next one, if any.
    private func run(_ recurse: (RxTimeInterval) -> Void) {
        let failed: Bool = lock.locked {
            if failure != nil { return true }
            running = true
            return false
        }
        if failed { return }
        var delivered = false
        var gone = false
        while true {
            let step: Step = lock.locked {
                if let failure { return .fail(failure) }
                if !delivered, let entry = dequeueLocked() { return .deliver(entry.item) }
                running = false
                if delivered, let arrival = frontTimeLocked() { return .reschedule(arrivedAt: arrival) }
                active = false
                gone = isSourceGone
                defer { drain = nil }
                return .idle(drain)
            }
            switch step {
            case .deliver(.next(let element)):
                delivered = true
                forward(element)
            case .deliver(.completed):
                forwardTermination(.completed)
                return
            case .fail(let error):
                forwardTermination(.error(error))
                return
            case .reschedule(let arrival):
                recurse(remainingDelay(since: arrival))
                return
            case .idle(let finished):
                withExtendedLifetime(finished) {}
                if gone { releaseWithSource() }
                return
            }
        }
    }

    /// What is left of `dueTime` for an event that arrived at `arrival` (zero when overdue).
    private func remainingDelay(since arrival: RxTime) -> RxTimeInterval {
        let remaining = dueTime.seconds - scheduler.now.timeIntervalSince(arrival)
        guard remaining.isFinite else { return .never }
        return .nanoseconds(Int((max(0, remaining) * 1_000_000_000).rounded()))
    }

    private func dequeueLocked() -> Entry? {
        if let entry = front {
            front = nil
            return entry
        }
        return queue.dequeue()
    }

    private func frontTimeLocked() -> RxTime? {
        if front == nil { front = queue.dequeue() }
        return front?.time
    }

    override func forwardSourceGone() {
        if lock.locked({ () -> Bool in
            isSourceGone = true
            return !active && !isDisposed
        }) {
            releaseWithSource()
        }
    }

    /// Nothing is queued and nothing more can arrive: lets go of downstream (``AnySink/sourceGone()``).
    @inline(never)
    private func releaseWithSource() {
        letGoOfDownstream()
    }

    override func disposeResources() {
        let (drain, dropped): (Disposable?, (Entry?, Queue<Entry>)) = lock.locked {
            defer {
                self.drain = nil
                front = nil
                queue = Queue()
            }
            return (self.drain, (front, queue))
        }
        withExtendedLifetime(dropped) {}
        drain?.dispose()
    }
}

extension SchedulerType {
    /// Schedules `action` after `dueTime`; its second argument reschedules it (RxSwift's recursive
    /// scheduling with a due time per run). Disposing the result cancels the pending run.
    fileprivate func scheduleRecursiveAfter<State>(
        _ state: State, dueTime: RxTimeInterval, action: @escaping (State, (State, RxTimeInterval) -> Void) -> Void
    ) -> Disposable {
        let recursive = RecursiveScheduler<State, Self>(scheduler: self, timed: self) { state, recursive in
            action(state) { recursive.schedule($0, dueTime: $1) }
        }
        recursive.schedule(state, dueTime: dueTime)
        return recursive
    }
}
