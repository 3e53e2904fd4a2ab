extension ObservableType {
    /// Passes on the first `count` elements, then completes.
    ///
    /// Completes, and disposes the source, right after the `count`-th element (without waiting for
    /// the source); completes or errors earlier when the source does. As in RxSwift, `take(0)` is
    /// `empty()`: it completes at once and never subscribes to the source. No scheduler; no lock or
    /// allocation per element.
    ///
    /// - Parameter count: How many elements to pass on; a negative count is a programmer error and
    ///   traps, as in RxSwift.
    ///
    /// RxJS: `take`; Combine: `prefix(_:)`.
    public func take(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "take: count can't be negative")
        if count == 0 { return Observable.empty() }
        return TakeCountObservable(source: asObservable(), count: count)
    }

    /// Passes on the elements that arrive within `duration` of the subscription, then completes.
    ///
    /// The timer is started on `scheduler` at subscription, before the source is subscribed (as in
    /// RxSwift); when it fires, the sequence completes on the scheduler's thread and the source is
    /// disposed. In virtual time an element of a hot source at exactly `duration` after the
    /// subscription is still passed on (it was scheduled before the timer). Errors and completion of
    /// the source are forwarded at once. Elements and the timer's completion are serialized: the
    /// observer never sees two calls at once, and nothing after the completion (if another thread is
    /// delivering an element when the timer fires, that thread delivers the completion right after).
    ///
    /// RxJS: `takeUntil(timer(duration))`; Combine: `prefix(untilOutputFrom: Timer…)`.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TakeTimeObservable(source: asObservable(), dueTime: duration, scheduler: scheduler)
    }
}

final class TakeCountObservable<Element>: CountProducer<Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return TakeCountSink(remaining: count, downstream: downstream).subscribed(to: source)
    }
}

final class TakeCountSink<Element>: CountdownSink<Element>, @unchecked Sendable {
    override func next(_ element: Element) {
        guard isForwarding, remaining > 0 else { return }
        // Counted before forwarding, as in RxSwift, so re-entrant elements count too.
        remaining -= 1
        downstream.next(element)
        if remaining == 0 {
            forwardTermination(.completed)
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}

final class TakeTimeObservable<Element>: TimedProducer<Element, Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = TakeTimeSink(downstream: downstream)
        let timer = scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
            sink.send(.terminate(.completed))
            return Disposables.create()
        }
        sink.setUpstream(Disposables.create(timer, source.subscribe(sink: sink)))
        return sink.asDisposable
    }
}

/// Thread-safety: elements (upstream's thread) and the timer's completion (the scheduler's) meet in
/// the serializing base, which delivers them one at a time.
final class TakeTimeSink<Element>: SerializingOperatorSink<Element, Element>, @unchecked Sendable {
    override func next(_ element: Element) {
        send(.next(element))
    }

    override func terminate(_ termination: Termination) {
        send(.terminate(termination))
    }

    func send(_ event: SerializedEvent<Element>) {
        let mustDrain = locked { enqueueLocked(event) }
        if mustDrain { drain() }
    }
}
