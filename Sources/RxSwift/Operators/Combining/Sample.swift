extension ObservableType {
    /// Emits the source's latest element each time `sampler` ticks, if the source emitted since the
    /// previous tick; otherwise `defaultValue`, if given.
    ///
    /// The source is subscribed first, then `sampler`. A tick is an element of `sampler` or, as in
    /// RxSwift, its completion. The source's error and `sampler`'s error are forwarded. The source's
    /// completion is not forwarded at once: it disposes the source's subscription, and the result
    /// completes at the next tick, right after that tick's element (so, as in RxSwift, if `sampler`
    /// already completed the result never completes). No scheduler is used; elements are delivered
    /// on `sampler`'s thread, serialized with the source's error.
    ///
    /// - Parameters:
    ///   - sampler: The sequence whose elements (and completion) trigger sampling.
    ///   - defaultValue: Emitted at a tick when the source emitted nothing since the previous one;
    ///     `nil` emits nothing then.
    /// - Returns: The sampled elements.
    ///
    /// RxJS: `sample`; Combine: none.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        SampleObservable(source: asObservable(), other: sampler.asObservable(), defaultValue: defaultValue)
    }
}

final class SampleObservable<Element, Sampler>: TwoSourceProducer<Element, Sampler, Element>, @unchecked Sendable {
    private let defaultValue: Element?

    init(source: Observable<Element>, other: Observable<Sampler>, defaultValue: Element?) {
        self.defaultValue = defaultValue
        super.init(source: source, other: other)
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = SampleSink<Element, Sampler>(defaultValue: defaultValue, downstream: downstream)
        // The source's subscription is disposed on its completion, before the sink ends.
        sink.setUpstream(sink.sourceSubscription)
        sink.sourceSubscription.setDisposable(source.subscribe(sink: sink))
        sink.subscribe(other: other)
        return sink.asDisposable
    }
}

/// Thread-safety: `latest`, `fresh` and `atEnd` are guarded by the base's `lock`.
final class SampleSink<Element, Sampler>: TwoSourceSink<Element, Sampler, Element>, @unchecked Sendable {
    @exclusivity(unchecked) private var latest: TwoSourceBox<Element>?
    @exclusivity(unchecked) private var fresh = false
    @exclusivity(unchecked) private var atEnd = false
    private let defaultValue: TwoSourceBox<Element>?
    let sourceSubscription = SingleAssignmentDisposable()

    init(defaultValue: Element?, downstream: Sink<Element>) {
        self.defaultValue = defaultValue.map { TwoSourceBox($0) }
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        let replaced: Element? = locked {
            fresh = true
            guard let latest else {
                latest = TwoSourceBox(element)
                return nil
            }
            defer { latest.value = element }
            return latest.value
        }
        withExtendedLifetime(replaced) {}
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .error:
            send(.terminate(termination))
        case .completed:
            locked { atEnd = true }
            sourceSubscription.dispose()
        }
    }

    override func otherNext(_ element: Sampler) {
        tick()
    }

    override func otherTerminate(_ termination: Termination) {
        switch termination {
        case .completed: tick()
        case .error: send(.terminate(termination))
        }
    }

    private func tick() {
        let mustDrain: Bool = locked {
            guard acceptsEventsLocked else { return false }
            var mustDrain = false
            if fresh, let latest {
                fresh = false
                mustDrain = enqueueLocked(.next(latest.value))
            } else if let defaultValue {
                mustDrain = enqueueLocked(.next(defaultValue.value))
            }
            if atEnd { mustDrain = enqueueLocked(.terminate(.completed)) || mustDrain }
            return mustDrain
        }
        if mustDrain { drain() }
    }

    override func disposeResources() {
        let dropped = locked { () -> TwoSourceBox<Element>? in
            defer { latest = nil }
            return latest
        }
        withExtendedLifetime(dropped) {}
        sourceSubscription.dispose()
        super.disposeResources()
    }
}
