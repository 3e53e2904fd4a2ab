extension ObservableType {
    /// Emits `elements` first, then the source's events.
    ///
    /// The elements are delivered on the subscribing thread while subscribing, before the source is
    /// subscribed. Completes and errors when the source does. No scheduler.
    /// RxJS: `startWith`; Combine: `prepend`.
    ///
    /// As in RxSwift, when the subscription ends while the elements are being delivered
    /// (`startWith(1, 2).take(1)`), the remaining elements are still sent (downstream drops them)
    /// and the source is still subscribed, then disposed as soon as subscribing it returns.
    ///
    /// - Parameter elements: The elements to emit before the source's.
    /// - Returns: The elements followed by the source sequence.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWithObservable(source: asObservable(), elements: elements)
    }
}

final class StartWithObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = ForwardingSink(downstream: downstream)
        for element in elements {
            sink.forward(element)
        }
        sink.setUpstream(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}
