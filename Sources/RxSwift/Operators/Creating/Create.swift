extension ObservableType {
    /// Creates a sequence from a subscribe function: `subscribe` receives an observer for each
    /// subscription and returns what to dispose when the subscription ends.
    ///
    /// The observer enforces the grammar: events after a terminal event, or after disposal, are
    /// dropped. Completes, errors and disposes as `subscribe` does; runs on the subscribing thread.
    /// RxJS/Combine: `new Observable(…)` / a custom `Publisher`.
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        CreateObservable(subscribe)
    }
}

final class CreateObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let subscribeHandler: (AnyObserver<Element>) -> Disposable

    init(_ subscribeHandler: @escaping (AnyObserver<Element>) -> Disposable) {
        self.subscribeHandler = subscribeHandler
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = CreateSink(downstream: downstream)
        sink.setUpstream(subscribeHandler(AnyObserver(SinkObserver(sink))))
        return sink
    }
}

final class CreateSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    #if DEBUG
        private let grammar = GrammarChecker()
    #endif

    override func next(_ element: Element) {
        #if DEBUG
            let entered = grammar.enter(terminal: false)
            defer { grammar.leave(entered) }
        #endif
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        #if DEBUG
            let entered = grammar.enter(terminal: true)
            defer { grammar.leave(entered) }
        #endif
        forwardTermination(termination)
    }
}
