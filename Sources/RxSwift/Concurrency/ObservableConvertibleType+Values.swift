extension ObservableConvertibleType where Element: Sendable {
    /// The sequence's elements as an `AsyncThrowingStream`.
    ///
    /// Reading `values` subscribes (as in RxSwift); elements are buffered without limit until they
    /// are iterated (as in RxSwift). The stream ends with the sequence's completion or throws its
    /// error.
    ///
    /// Cancelling the iterating task disposes the subscription at once and makes the loop throw
    /// `CancellationError` (after any elements already buffered), so that a cancelled loop is not
    /// mistaken for a completed sequence; RxSwift 6.10 throws it too. A loop that already saw the
    /// sequence end is not affected. Dropping the stream and its iterators without finishing also
    /// disposes the subscription.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        let source = asObservable()
        return AsyncThrowingStream { continuation in
            let subscription = source.subscribe(
                onNext: { continuation.yield($0) },
                onError: { continuation.finish(throwing: $0) },
                onCompleted: { continuation.finish() })
            continuation.onTermination = { termination in
                // The stream calls this on cancellation before it finishes by itself, so this error
                // is the one the pending (or next) `next()` throws.
                if case .cancelled = termination { continuation.finish(throwing: CancellationError()) }
                subscription.dispose()
            }
        }
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// The sequence as an `Observable`: each subscription iterates it in a new detached task (at
    /// `priority`, or the default priority when `nil`), delivering its elements, then completion or
    /// its error; disposing cancels the task (and delivers nothing more).
    ///
    /// The task is detached, as in RxSwift 6.10: it inherits neither the subscribing task's actor,
    /// priority nor task-local values, so iterating never runs on (or waits for) the caller's actor.
    /// Deliver on the thread you need with `observe(on:)`.
    ///
    /// - Parameter priority: The priority of the iterating task; `nil` (the default) leaves it to
    ///   the runtime.
    /// - Returns: The sequence's elements, then its end.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        Observable.create { observer in
            let task = Task.detached(priority: priority) {
                do {
                    for try await element in self {
                        observer.onNext(element)
                    }
                    observer.onCompleted()
                } catch {
                    // Disposal cancels this task: that subscription has ended, nothing is delivered. Any
                    // other error, a `CancellationError` the sequence throws by itself included, is.
                    if error is CancellationError, Task.isCancelled { return }
                    observer.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}
