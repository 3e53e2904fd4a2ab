extension ObservableType {
    /// Passes on an element only once `dueTime` has passed without another element after it.
    ///
    /// Each element restarts a timer on `scheduler` and replaces the element waiting; when a timer
    /// fires, the waiting element is delivered on the scheduler. As in RxSwift, completion does not
    /// drop the waiting element: it is delivered at once, immediately followed by the completion (both
    /// on the thread that delivered the completion). An error drops the waiting element and is
    /// forwarded at once. Termination and disposal cancel the pending timer.
    ///
    /// Elements from the timer and events from the source are serialized: the observer never sees two
    /// calls at once (an event decided while another thread is delivering is delivered by that thread,
    /// right after, in order). On RxTest's `TestScheduler`, a `dueTime` of 0 delivers one tick later
    /// (simulated processing delay).
    ///
    /// - Parameters:
    ///   - dueTime: The quiet time an element must be followed by to be passed on.
    ///   - scheduler: The scheduler that runs the timers.
    ///
    /// RxJS: `debounceTime`; Combine: `debounce(for:scheduler:)`.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DebounceObservable(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

final class DebounceObservable<Element>: TimedProducer<Element, Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return DebounceSink(dueTime: dueTime, scheduler: scheduler, downstream: downstream).subscribed(to: source)
    }
}

/// Thread-safety: `waiting`, `ticket` and `timer` are guarded by the base's `lock`; the timer fires on
/// the scheduler while elements arrive on upstream's thread, and the base serializes delivery. Each
/// element gets a new ticket, so a timer that fires after being superseded (before its disposal
/// took effect) delivers nothing.
final class DebounceSink<Element>: SerializingOperatorSink<Element, Element>, @unchecked Sendable {
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    @exclusivity(unchecked) private var waiting: Element?
    @exclusivity(unchecked) private var ticket: UInt64 = 0
    @exclusivity(unchecked) private var timer: Disposable?

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, downstream: Sink<Element>) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        var replaced: Element?
        var superseded: Disposable?
        let ticket: UInt64? = locked {
            guard acceptsEventsLocked else { return nil }
            self.ticket &+= 1
            replaced = waiting
            waiting = element
            superseded = timer
            timer = nil
            return self.ticket
        }
        // Released and cancelled after unlocking: deinitializers and disposal may run code.
        withExtendedLifetime(replaced) {}
        superseded?.dispose()
        guard let ticket else { return }
        let scheduled = scheduler.scheduleRelative((self, ticket), dueTime: dueTime) { sink, ticket in
            sink.fire(ticket)
            return Disposables.create()
        }
        let stale: Bool = locked {
            // Not stored if the sink ended, or if the timer already fired on another thread.
            guard isForwarding, self.ticket == ticket, waiting != nil else { return true }
            timer = scheduled
            return false
        }
        if stale { scheduled.dispose() }
    }

    private func fire(_ ticket: UInt64) {
        let mustDrain: Bool = locked {
            guard self.ticket == ticket, let element = waiting else { return false }
            waiting = nil
            timer = nil
            defer { letGoAfterQueuedLocked() }
            return enqueueLocked(.next(element))
        }
        if mustDrain { drain() }
    }

    /// Once the element waiting, if any, is delivered, nothing more can be.
    override func forwardSourceGone() {
        recordSourceGone { waiting == nil }
    }

    override func terminate(_ termination: Termination) {
        var dropped: Element?
        let mustDrain: Bool = locked {
            let flushed = waiting
            waiting = nil
            var mustDrain = false
            switch termination {
            case .completed:
                if let flushed { mustDrain = enqueueLocked(.next(flushed)) }
            case .error:
                dropped = flushed
            }
            return enqueueLocked(.terminate(termination)) || mustDrain
        }
        withExtendedLifetime(dropped) {}
        if mustDrain { drain() }
    }

    override func disposeResources() {
        let (pending, dropped) = locked { () -> (Disposable?, Element?) in
            defer {
                timer = nil
                waiting = nil
            }
            return (timer, waiting)
        }
        withExtendedLifetime(dropped) {}
        pending?.dispose()
        super.disposeResources()
    }
}
