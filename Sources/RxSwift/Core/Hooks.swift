import Synchronization

/// Global hooks: where unhandled errors and grammar violations are reported.
///
/// Each hook lives behind a `Mutex`; set them once at start-up (or in a test's set-up).
public enum Hooks {
    /// Handles an error that reached a `subscribe` with no `onError`.
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void
    /// Captures a call stack when a subscription is made (for `DefaultErrorHandler`).
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

    private struct State {
        var defaultErrorHandler: DefaultErrorHandler = { _, error in
            #if DEBUG
                print("Unhandled error happened: \(error)")
            #endif
        }
        var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack = { [] }
        var recordCallStackOnError = false
    }

    private static let state = Mutex(State())

    /// Called for errors that reach a `subscribe` without `onError`. By default debug builds print
    /// the error and release builds ignore it.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withLock { $0.defaultErrorHandler } }
        set { state.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// Returns the call stack recorded for a subscription; empty by default.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { state.withLock { $0.customCaptureSubscriptionCallstack } }
        set { state.withLock { $0.customCaptureSubscriptionCallstack = newValue } }
    }

    /// Whether subscriptions record call stacks for `defaultErrorHandler` (off by default).
    public static var recordCallStackOnError: Bool {
        get { state.withLock { $0.recordCallStackOnError } }
        set { state.withLock { $0.recordCallStackOnError = newValue } }
    }
}
