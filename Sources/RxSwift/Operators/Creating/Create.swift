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
    @inlinable
    public static func create(
        _ subscribe: @escaping (AnyObserver<Element>) -> Disposable,
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let subscribe =
            isolation == nil
            ? subscribe : rxIsolationChecked(subscribe, isolation, "create", callerFileID, callerLine)
        return CreateObservable(subscribe, file: file, line: line)
    }
}

/// Built by inlinable code, its sink made by a closure written there, so that the sink's generic
/// class is specialized (see DESIGN.md, The hot path).
@usableFromInline
final class CreateObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let subscribeHandler: (AnyObserver<Element>) -> Disposable
    private let makeSink: (Sink<Element>) -> CreateSink<Element>
    #if DEBUG
        private let grammar: GrammarSource
    #endif

    @usableFromInline
    init(
        _ subscribeHandler: @escaping (AnyObserver<Element>) -> Disposable, file: StaticString, line: UInt,
        makeSink: @escaping (Sink<Element>) -> CreateSink<Element> = { CreateSink(downstream: $0) }
    ) {
        self.subscribeHandler = subscribeHandler
        self.makeSink = makeSink
        #if DEBUG
            grammar = GrammarSource(file: file, line: line)
        #endif
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        // A downstream sink that drops what arrives after its end or its disposal (`map`, `filter`
        // and their pairs) is handed to the closure directly: the create sink would only repeat
        // those checks, at the cost of an object per subscription. Debug builds keep it for its
        // grammar checks (unless a test turns them off to run this path).
        if downstream.guardsItsInput && !CreateGrammarChecks.isEnabled {
            return subscribeHandler(AnyObserver(sink: downstream))
        }
        let sink = makeSink(downstream)
        #if DEBUG
            sink.checkGrammar(of: grammar)
        #endif
        sink.setUpstream(subscribeHandler(AnyObserver(sink: sink)))
        return sink.asDisposable
    }
}

@usableFromInline
final class CreateSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    @usableFromInline
    override init(downstream: Sink<Element>) {
        super.init(downstream: downstream)
    }

    #if DEBUG
        /// Set once, before the sink is handed to the producer's closure; afterwards only read, so
        /// concurrent deliveries share it without a race (its state is in the checker object).
        private var grammar: GrammarChecker!

        func checkGrammar(of source: GrammarSource) {
            grammar = GrammarChecker(source: source)
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
