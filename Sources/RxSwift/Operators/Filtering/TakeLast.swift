extension ObservableType {
    /// Passes on the last `count` elements of the source when it completes.
    ///
    /// Keeps up to `count` elements; when the source completes, emits them in order on the thread
    /// that delivered the completion, then completes. An error drops the kept elements and is
    /// forwarded at once. `takeLast(0)` only passes on how the source ends. No scheduler.
    ///
    /// - Parameter count: How many elements to keep; a negative count is a programmer error and traps,
    ///   as in RxSwift.
    ///
    /// RxJS: `takeLast`; Combine: none (`last()` for a count of 1).
    public func takeLast(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "takeLast: count can't be negative")
        return TakeLastObservable(source: asObservable(), count: count)
    }
}

final class TakeLastObservable<Element>: CountProducer<Element>, @unchecked Sendable {
    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return TakeLastSink(count: count, downstream: downstream).subscribed(to: source)
    }
}

final class TakeLastSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let count: Int
    @exclusivity(unchecked) private var kept = Queue<Element>()

    init(count: Int, downstream: Sink<Element>) {
        self.count = count
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding, count > 0 else { return }
        if kept.count == count {
            _ = kept.dequeue()
        }
        kept.enqueue(element)
    }

    override func terminate(_ termination: Termination) {
        var elements = kept
        kept = Queue()
        if case .completed = termination {
            // Stops as soon as downstream disposes the subscription from inside `onNext`.
            while isForwarding, let element = elements.dequeue() {
                downstream.next(element)
            }
        }
        forwardTermination(termination)
    }
}
