import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Global hooks: where unhandled errors and grammar violations are reported.
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
        var line = message + "\n"
        // `write` on the descriptor: the C `stderr` global is not concurrency-safe in Swift 6.
        line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// Stops the program at a grammar violation in debug builds (`assertionFailure`).
    public static let trappingGrammarViolationHandler: @Sendable (String) -> Void = { message in
        assertionFailure(message)
    }
}
