extension ObservableType {
    /// Emits only the element at `index` (counting from 0), then completes.
    ///
    /// Completes, and disposes the source, as soon as that element arrived. A source that completes
    /// before reaching `index` gives `RxError.argumentOutOfRange`; an error before it is forwarded.
    /// No scheduler.
    ///
    /// - Parameter index: The zero-based position of the element; a negative index is a programmer
    ///   error and traps, as in RxSwift.
    /// - Returns: A sequence of at most that one element.
    ///
    /// RxJS: `elementAt`; Combine: `output(at:)` (which completes instead of failing when the source is
    /// too short).
    public func element(at index: Int) -> Observable<Element> {
        precondition(index >= 0, "element(at:): index can't be negative")
        return ElementAtObservable(source: asObservable(), count: index)
    }
}

final class ElementAtObservable<Element>: CountProducer<Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return ElementAtSink(remaining: count, downstream: downstream).subscribed(to: source)
    }
}

final class ElementAtSink<Element>: CountdownSink<Element>, @unchecked Sendable {
    override func next(_ element: Element) {
        guard isForwarding else { return }
        if remaining == 0 {
            remaining = -1
            downstream.next(element)
            forwardTermination(.completed)
            return
        }
        remaining -= 1
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .completed: forwardTermination(.error(RxError.argumentOutOfRange))
        case .error: forwardTermination(termination)
        }
    }
}
