import Synchronization

/// Connects one subscription to one `await`: whichever comes first of the result and the task's
/// cancellation resumes the continuation, exactly once; cancellation also disposes the subscription.
///
/// Nothing here blocks: subscribing happens on the awaiting task, disposal and resumption after
/// unlocking, so a task cancelled while its source is emitting on another thread neither waits for
/// that thread nor deadlocks with it.
///
/// Thread-safety: all state lives in the `Mutex`; continuations are resumed and disposables disposed
/// after unlocking.
final class AwaitBridge<Value: Sendable>: Sendable {
    private struct State: ~Copyable {
        var continuation: CheckedContinuation<Value, Swift.Error>?
        var subscription: Disposable?
        var finished = false
    }

    private let state = Mutex(State())

    /// Awaits the result that `subscribe` reports through the closure it is given.
    func value(subscribe: (@escaping @Sendable (Result<Value, Swift.Error>) -> Void) -> Disposable) async throws
        -> Value
    {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelledAlready = state.withAnnotatedLock { state -> Bool in
                    if state.finished { return true }
                    state.continuation = continuation
                    return false
                }
                if cancelledAlready {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let subscription = subscribe { [self] result in finish(result) }
                let disposeNow = state.withAnnotatedLock { state -> Bool in
                    if state.finished { return true }
                    state.subscription = subscription
                    return false
                }
                if disposeNow { subscription.dispose() }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    /// Resumes the awaiting task with `result` unless it was resumed already, and disposes the
    /// subscription.
    private func finish(_ result: Result<Value, Swift.Error>) {
        let (continuation, subscription) = state.withAnnotatedLock {
            state -> (CheckedContinuation<Value, Swift.Error>?, Disposable?) in
            if state.finished { return (nil, nil) }
            state.finished = true
            defer {
                state.continuation = nil
                state.subscription = nil
            }
            return (state.continuation, state.subscription)
        }
        subscription?.dispose()
        continuation?.resume(with: result)
    }
}
