extension ObservableType {
    /// Drops the source's elements until `other` emits an element, then passes them on.
    ///
    /// The source is subscribed first, then `other`. `other`'s first element opens the gate and
    /// disposes its subscription; its error is forwarded; its completion only disposes its
    /// subscription (the gate then stays closed). The source's error is always forwarded. As in
    /// RxSwift, the source's completion is forwarded only once the gate is open: a source that
    /// completes while the gate is closed ends the subscriptions and the result never terminates.
    /// No scheduler is used; events are serialized when the two sequences race.
    ///
    /// - Parameter other: The sequence whose first element opens the gate.
    /// - Returns: The source's elements after `other`'s first element.
    ///
    /// RxJS: `skipUntil`; Combine: `drop(untilOutputFrom:)`.
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        SkipUntilObservable(source: asObservable(), other: other.asObservable())
    }
}

final class SkipUntilObservable<Element, Other>: TwoSourceProducer<Element, Other, Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = SkipUntilSink<Element, Other>(downstream: downstream)
        sink.setUpstream(source.subscribe(sink: sink))
        sink.subscribe(other: other)
        return sink.asDisposable
    }
}

/// Thread-safety: `open` is guarded by the base's `lock`.
final class SkipUntilSink<Element, Other>: TwoSourceSink<Element, Other, Element>, @unchecked Sendable {
    @exclusivity(unchecked) private var open = false

    override func next(_ element: Element) {
        let mustDrain: Bool = locked { open && enqueueLocked(.next(element)) }
        if mustDrain { drain() }
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .error:
            send(.terminate(termination))
        case .completed:
            if locked({ open }) {
                send(.terminate(termination))
            } else {
                dispose()
            }
        }
    }

    override func otherNext(_ element: Other) {
        locked { open = true }
        otherSubscription.dispose()
        // Done with: it counts as gone (see ``TwoSourceSink/otherGone()``).
        otherGone()
    }

    override func otherTerminate(_ termination: Termination) {
        switch termination {
        case .completed: otherSubscription.dispose()
        case .error: send(.terminate(termination))
        }
    }
}
