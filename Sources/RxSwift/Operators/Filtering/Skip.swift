import Synchronization

extension ObservableType {
    /// Drops the first `count` elements and passes on the rest.
    ///
    /// Completes and errors when the source does. A `count` of 0 or less passes everything. No
    /// scheduler; no lock or allocation per element. RxJS: `skip`; Combine: `dropFirst(_:)`.
    public func skip(_ count: Int) -> Observable<Element> {
        SkipCountObservable(source: asObservable(), count: count)
    }

    /// Drops the elements that arrive within `duration` of the subscription and passes on the rest.
    ///
    /// The timer is started on `scheduler` at subscription, before the source is subscribed (as in
    /// RxSwift); elements are passed on from the moment it fired, on the thread that delivers them.
    /// In virtual time that means an element of a hot source at exactly `duration` after the
    /// subscription is dropped (it was scheduled before the timer), while an element a cold source
    /// emits at that time passes. Completes and errors when the source does, at once; termination and
    /// disposal cancel the timer.
    ///
    /// RxJS: `skipUntil(timer(duration))`; Combine: `drop(untilOutputFrom: Timer…)`.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipTimeObservable(source: asObservable(), dueTime: duration, scheduler: scheduler)
    }
}

final class SkipCountObservable<Element>: CountProducer<Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return SkipCountSink(remaining: count, downstream: downstream).subscribed(to: source)
    }
}

final class SkipCountSink<Element>: CountdownSink<Element>, @unchecked Sendable {
    override func next(_ element: Element) {
        guard isForwarding else { return }
        if remaining <= 0 {
            downstream.next(element)
        } else {
            remaining -= 1
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}

final class SkipTimeObservable<Element>: TimedProducer<Element, Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = SkipTimeSink(downstream: downstream)
        let timer = scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
            sink.open()
            return Disposables.create()
        }
        sink.setUpstream(Disposables.create(timer, source.subscribe(sink: sink)))
        return sink.asDisposable
    }
}

/// Thread-safety: the timer only raises the atomic `isOpen`; everything else runs on the upstream
/// thread.
final class SkipTimeSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let isOpen = Atomic<Bool>(false)

    /// Its timer only opens the gate: once the source lets go, nothing can be delivered.
    override var releasesWithItsSource: Bool { true }

    func open() {
        isOpen.store(true, ordering: .releasing)
    }

    override func next(_ element: Element) {
        guard isForwarding, isOpen.load(ordering: .acquiring) else { return }
        downstream.next(element)
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
