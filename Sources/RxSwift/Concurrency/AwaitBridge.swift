import Synchronization

/// Connects one subscription to one `await`: whichever comes first of the result and the task's
/// cancellation resumes the continuation, exactly once; cancellation also disposes the subscription.
///
/// The bridge always subscribes first: a result delivered while `subscribe` runs (`Single.just`) is
/// returned even if the task was cancelled, as in RxSwift; a cancellation before `subscribe` returns
/// takes effect when it returns, a later one at once.
///
/// Thread-safety: all state lives in the `Mutex`; continuations are resumed and disposables disposed
/// after unlocking, so nothing blocks on (or deadlocks with) a source emitting on another thread.
final class AwaitBridge<Value: Sendable>: Sendable {
    private enum Phase {
        /// The operation has not started: a cancellation is only noted.
        case notStarted
        /// `subscribe` is running: a result is taken, a cancellation is noted.
        case subscribing
        /// Subscribed, no result yet: a result or a cancellation ends the wait.
        case waiting
        /// The continuation was resumed (or is about to be, by whoever set this).
        case finished
    }

    private struct State: ~Copyable {
        var phase = Phase.notStarted
        var cancelRequested = false
        var continuation: CheckedContinuation<Value, Swift.Error>?
        var subscription: Disposable?
    }

    private let state = Mutex(State())

    /// Awaits the result that `subscribe` reports through the closure it is given.
    func value(subscribe: (@escaping @Sendable (Result<Value, Swift.Error>) -> Void) -> Disposable) async throws
        -> Value
    {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withAnnotatedLock { state in
                    state.phase = .subscribing
                    state.continuation = continuation
                }
                let subscription = subscribe { [self] result in finish(result) }
                let (disposeNow, cancelled) = state.withAnnotatedLock {
                    state -> (Bool, CheckedContinuation<Value, Swift.Error>?) in
                    if case .finished = state.phase { return (true, nil) }
                    if state.cancelRequested {
                        state.phase = .finished
                        defer { state.continuation = nil }
                        return (true, state.continuation)
                    }
                    state.phase = .waiting
                    state.subscription = subscription
                    return (false, nil)
                }
                if disposeNow { subscription.dispose() }
                cancelled?.resume(throwing: CancellationError())
            }
        } onCancel: {
            cancel()
        }
    }

    /// Resumes the awaiting task with `result` unless it was resumed already, and disposes the
    /// subscription (if `subscribe` has returned it; otherwise the subscribing code disposes it).
    private func finish(_ result: Result<Value, Swift.Error>) {
        let (continuation, subscription) = state.withAnnotatedLock {
            state -> (CheckedContinuation<Value, Swift.Error>?, Disposable?) in
            switch state.phase {
            case .notStarted, .finished:
                return (nil, nil)
            case .subscribing, .waiting:
                state.phase = .finished
                defer {
                    state.continuation = nil
                    state.subscription = nil
                }
                return (state.continuation, state.subscription)
            }
        }
        subscription?.dispose()
        continuation?.resume(with: result)
    }

    /// The task was cancelled: ends the wait now if subscribed, or notes it for when `subscribe`
    /// returns.
    private func cancel() {
        let (continuation, subscription) = state.withAnnotatedLock {
            state -> (CheckedContinuation<Value, Swift.Error>?, Disposable?) in
            switch state.phase {
            case .notStarted, .subscribing:
                state.cancelRequested = true
                return (nil, nil)
            case .finished:
                return (nil, nil)
            case .waiting:
                state.phase = .finished
                defer {
                    state.continuation = nil
                    state.subscription = nil
                }
                return (state.continuation, state.subscription)
            }
        }
        subscription?.dispose()
        continuation?.resume(throwing: CancellationError())
    }
}
