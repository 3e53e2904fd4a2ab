extension ObservableType {
    /// Passes on the source's elements until `other` emits an element, then completes.
    ///
    /// `other` is subscribed first, then the source. An element of `other` completes the result and
    /// disposes both subscriptions; an error of `other` is forwarded. If `other` completes without an
    /// element, only its subscription is disposed and the source's events keep passing (as in
    /// RxSwift). The source's terminal events are forwarded. No scheduler is used: events are
    /// delivered on the thread of the sequence that caused them, serialized when the two race.
    ///
    /// - Parameter other: The sequence whose first element ends the result.
    /// - Returns: The source's elements up to `other`'s first element.
    ///
    /// RxJS: `takeUntil`; Combine: `prefix(untilOutputFrom:)`.
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        TakeUntilObservable(source: asObservable(), other: other.asObservable())
    }
}

final class TakeUntilObservable<Element, Other>: TwoSourceProducer<Element, Other, Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = TakeUntilSink<Element, Other>(downstream: downstream)
        sink.subscribe(other: other)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}

/// Thread-safety: no state beyond the base's; every event is queued under the base's lock.
final class TakeUntilSink<Element, Other>: TwoSourceSink<Element, Other, Element>, @unchecked Sendable {
    override func next(_ element: Element) {
        send(.next(element))
    }

    override func terminate(_ termination: Termination) {
        send(.terminate(termination))
    }

    override func otherNext(_ element: Other) {
        send(.terminate(.completed))
    }

    override func otherTerminate(_ termination: Termination) {
        switch termination {
        case .completed: otherSubscription.dispose()
        case .error: send(.terminate(termination))
        }
    }
}
