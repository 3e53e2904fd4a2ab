extension ObservableType {
    /// Pairs each element with its zero-based index in the sequence.
    ///
    /// Every subscription counts from 0. Completes and errors when the source does; an element that
    /// would need an index past `Int.max - 1` ends the sequence with `RxError.overflow`, as in RxSwift.
    /// No scheduler; no lock or allocation per element. RxJS: `map((x, i) => …)`; Combine: none
    /// (`scan` over a counter).
    ///
    /// - Returns: `(index, element)` tuples.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        EnumeratedObservable(source: asObservable(), firstIndex: 0)
    }
}

final class EnumeratedObservable<Element>: Observable<(index: Int, element: Element)>, @unchecked Sendable {
    private let source: Observable<Element>
    /// 0 for the public operator; tests start near `Int.max` to reach the overflow.
    private let firstIndex: Int

    init(source: Observable<Element>, firstIndex: Int) {
        self.source = source
        self.firstIndex = firstIndex
        super.init()
    }

    override func subscribe(sink downstream: Sink<(index: Int, element: Element)>) -> Disposable {
        return EnumeratedSink(firstIndex: firstIndex, downstream: downstream).subscribed(to: source)
    }
}

/// Thread-safety: `index` is touched only by `next`, which upstream serializes.
final class EnumeratedSink<Element>: OneSourceSink<Element, (index: Int, element: Element)>, @unchecked Sendable {
    @exclusivity(unchecked) private var index: Int

    init(firstIndex: Int, downstream: Sink<(index: Int, element: Element)>) {
        index = firstIndex
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        guard index < Int.max else {
            forwardTermination(.error(RxError.overflow))
            return
        }
        let current = index
        index += 1
        downstream.next((index: current, element: element))
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
