import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Global hooks: where unhandled errors, grammar violations and isolation violations are reported.
///
/// Each hook is synchronized (a `Mutex`, or an atomic for the flag read on every subscription); set
/// them once at start-up (or in a test's set-up).
public enum Hooks {
    /// Handles an error that reached a `subscribe` with no `onError`.
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void
    /// Captures a call stack when a subscription is made (for `DefaultErrorHandler`).
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

    private struct State {
        var defaultErrorHandler: DefaultErrorHandler = { subscriptionCallStack, error in
            #if DEBUG
                print("Unhandled error happened: \(error)")
                if !subscriptionCallStack.isEmpty {
                    print("subscription called from:\n\(subscriptionCallStack.joined(separator: "\n"))")
                }
            #endif
        }
        var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack = { [] }
        var grammarViolationHandler: @Sendable (String) -> Void = Hooks.printingGrammarViolationHandler
        var isolationViolationHandler: @Sendable (IsolationViolation) -> Void = Hooks.defaultIsolationViolationHandler
        /// The call sites reported to the current ``isolationViolationHandler``.
        var reportedIsolationCallSites: Set<IsolationCallSiteKey> = []
    }

    /// A call site, as the once-per-call-site record of isolation violations tells them apart.
    struct IsolationCallSiteKey: Hashable {
        let file: String
        let line: UInt
        let operatorName: String
    }

    private static let state = Mutex(State())

    /// Stores `value` and returns the hook it replaces, for the setter to release after unlocking:
    /// a closure's captures may run code in their deinitializers.
    private static func replace<Value: Sendable>(_ hook: WritableKeyPath<State, Value>, with value: Value) -> Value {
        state.withAnnotatedLock { state in
            let replaced = state[keyPath: hook]
            state[keyPath: hook] = value
            return replaced
        }
    }
    /// Read by every `subscribe(onNext:…)` without `onError`, so it is an atomic rather than behind
    /// the mutex.
    private static let recordCallStack = Atomic<Bool>(false)

    /// Called for errors that reach a `subscribe` without `onError`. By default debug builds print
    /// the error and release builds ignore it.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withAnnotatedLock { $0.defaultErrorHandler } }
        set { withExtendedLifetime(replace(\.defaultErrorHandler, with: newValue)) {} }
    }

    /// Returns the call stack recorded for a subscription when ``recordCallStackOnError`` is on; empty
    /// by default (the library cannot symbolicate without Foundation's `Thread`).
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { state.withAnnotatedLock { $0.customCaptureSubscriptionCallstack } }
        set { withExtendedLifetime(replace(\.customCaptureSubscriptionCallstack, with: newValue)) {} }
    }

    /// Whether `subscribe(onNext:…)` calls ``customCaptureSubscriptionCallstack`` when it subscribes, so
    /// that ``defaultErrorHandler`` can say where an unhandled error's subscription was made. Off by
    /// default because capturing a stack on every subscription is expensive.
    public static var recordCallStackOnError: Bool {
        get { recordCallStack.load(ordering: .relaxed) }
        set { recordCallStack.store(newValue, ordering: .relaxed) }
    }

    /// Called, in debug builds only, when a producer breaks the Rx contract through an observer the
    /// library handed out: a `next` after a terminal event, two terminal events, or delivery from two
    /// threads at once or re-entrantly. Each offending source reports once, naming where it was
    /// created. The offending events are dropped, as RxSwift drops them.
    ///
    /// The default, ``printingGrammarViolationHandler``, writes the report to standard error and lets
    /// the program go on; set ``trappingGrammarViolationHandler`` to stop at the first violation, or
    /// let RxTest turn violations into test failures (`RxLeakCheckingTestCase.failsOnGrammarViolations`,
    /// `@Test(.grammarChecked)`).
    public static var grammarViolationHandler: @Sendable (String) -> Void {
        get { state.withAnnotatedLock { $0.grammarViolationHandler } }
        set { withExtendedLifetime(replace(\.grammarViolationHandler, with: newValue)) {} }
    }

    /// Writes a grammar violation report to standard error (the default handler).
    public static let printingGrammarViolationHandler: @Sendable (String) -> Void = { message in
        writeToStandardError(message)
    }

    private static func writeToStandardError(_ message: String) {
        var line = message + "\n"
        // `write` on the descriptor: the C `stderr` global is not concurrency-safe in Swift 6.
        line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// Stops the program at a grammar violation in debug builds (`assertionFailure`).
    public static let trappingGrammarViolationHandler: @Sendable (String) -> Void = { message in
        assertionFailure(message)
    }

    /// Called, in debug builds only, when swift-rx is about to call a closure off the actor it was
    /// written on: a closure given to an operator from `@MainActor` code or an `actor`'s method, called
    /// from a background scheduler, a subject fed from another thread, an `AsyncSequence`'s task. Each
    /// call site (the operator, its file and line) is reported once; the closure then runs as it would
    /// have in release builds, unless the handler stops the program.
    ///
    /// The default, ``defaultIsolationViolationHandler``, prints the report and goes on, in either
    /// language mode: RxSwift code delivers into such closures from background threads, and RxSwift lets
    /// it. Set ``trappingIsolationViolationHandler`` to stop, as Swift's own run-time checks stop a
    /// Swift 6-mode program, or let RxTest turn the reports into test failures
    /// (`RxLeakCheckingTestCase.failsOnIsolationViolations`, `@Test(.isolationChecked)`).
    /// Setting the handler starts the record of reported call sites afresh, so a test that installs its
    /// own sees every call site it runs. Release builds check nothing and never call it.
    public static var isolationViolationHandler: @Sendable (IsolationViolation) -> Void {
        get { state.withAnnotatedLock { $0.isolationViolationHandler } }
        set {
            let replaced = state.withAnnotatedLock { state in
                let replaced = state.isolationViolationHandler
                state.isolationViolationHandler = newValue
                state.reportedIsolationCallSites = []
                return replaced
            }
            withExtendedLifetime(replaced) {}
        }
    }

    /// Prints the report and goes on (``printingIsolationViolationHandler``): the default.
    ///
    /// An operator cannot tell a Swift 6-mode caller from a Swift 5-mode one without a macro expanded at
    /// every call site, which made client code type-check slower than against RxSwift; so the default
    /// does what RxSwift code of either mode needs, and a program that wants to stop says so.
    public static let defaultIsolationViolationHandler: @Sendable (IsolationViolation) -> Void = { violation in
        printingIsolationViolationHandler(violation)
    }

    /// Writes an isolation violation report to standard error and lets the program go on.
    public static let printingIsolationViolationHandler: @Sendable (IsolationViolation) -> Void = { violation in
        writeToStandardError(violation.message)
    }

    /// Stops the program at an isolation violation (`fatalError`), whatever the caller's language mode.
    public static let trappingIsolationViolationHandler: @Sendable (IsolationViolation) -> Void = { violation in
        rxFatalError(violation.message)
    }

    /// Hands `violation` to the handler unless its call site has been reported to it already; the
    /// handler is called after unlocking (it may stop, print or record).
    static func reportIsolationViolation(_ violation: IsolationViolation) {
        let key = IsolationCallSiteKey(file: violation.file, line: violation.line, operatorName: violation.operatorName)
        let handler = state.withAnnotatedLock { state in
            state.reportedIsolationCallSites.insert(key).inserted ? state.isolationViolationHandler : nil
        }
        handler?(violation)
    }
}
