extension ObservableConvertibleType where Element: Sendable {
    /// The sequence's elements as an `AsyncThrowingStream`: reading `values` subscribes (as in
    /// RxSwift; elements are buffered until iterated); the stream ends with the sequence's completion
    /// or throws its error; cancelling the iterating task (or dropping the iterator) disposes the
    /// subscription at once. Elements are buffered without limit while the consumer is busy, as in
    /// RxSwift.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        let source = asObservable()
        return AsyncThrowingStream { continuation in
            let subscription = source.subscribe(
                onNext: { continuation.yield($0) },
                onError: { continuation.finish(throwing: $0) },
                onCompleted: { continuation.finish() })
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// The sequence as an `Observable`: each subscription iterates it in a new task, delivering its
    /// elements, then completion or its error; disposing cancels the task (and delivers nothing
    /// more).
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in
            let task = Task {
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
