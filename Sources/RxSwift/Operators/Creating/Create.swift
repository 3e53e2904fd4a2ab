extension ObservableType {
    /// Creates a sequence from a subscribe function: `subscribe` receives an observer for each
    /// subscription and returns what to dispose when the subscription ends.
    ///
    /// The observer enforces the grammar: events after a terminal event, or after disposal, are
    /// dropped. Completes, errors and disposes as `subscribe` does; runs on the subscribing thread.
    /// RxJS/Combine: `new Observable(…)` / a custom `Publisher`.
    ///
    /// Debug builds report a producer that breaks the grammar (a `next` after a terminal event, two
    /// terminal events, concurrent or re-entrant delivery) once per `create` call site, naming `file`
    /// and `line`, through ``Hooks/grammarViolationHandler``; the events themselves are dropped as in
    /// RxSwift. `file` and `line` are filled in by the compiler.
    public static func create(
        _ subscribe: @escaping (AnyObserver<Element>) -> Disposable,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Element> {
        #if DEBUG
            CreateObservable(subscribe, grammar: GrammarSource(file: file, line: line))
        #else
            CreateObservable(subscribe)
        #endif
    }
}

final class CreateObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let subscribeHandler: (AnyObserver<Element>) -> Disposable

    #if DEBUG
        private let grammar: GrammarSource

        init(_ subscribeHandler: @escaping (AnyObserver<Element>) -> Disposable, grammar: GrammarSource) {
            self.subscribeHandler = subscribeHandler
            self.grammar = grammar
        }
    #else
        init(_ subscribeHandler: @escaping (AnyObserver<Element>) -> Disposable) {
            self.subscribeHandler = subscribeHandler
        }
    #endif

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        #if DEBUG
            let sink = CreateSink(downstream: downstream, grammar: grammar)
        #else
            let sink = CreateSink(downstream: downstream)
        #endif
        sink.setUpstream(subscribeHandler(AnyObserver(sink: sink)))
        return sink
    }
}

final class CreateSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    #if DEBUG
        private let grammar: GrammarChecker

        init(downstream: Sink<Element>, grammar source: GrammarSource) {
            grammar = GrammarChecker(source: source)
            super.init(downstream: downstream)
        }
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
