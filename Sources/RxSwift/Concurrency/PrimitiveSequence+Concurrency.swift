extension PrimitiveSequenceType where Trait == SingleTrait, Element: Sendable {
    /// Subscribes and waits for the element; throws the error. Never blocks a thread.
    ///
    /// Cancellation: `value` always subscribes first, even in a task that is already cancelled. If the
    /// Single answers during that subscription (`Single.just`, a cache hit), its answer is returned
    /// (or thrown), as in RxSwift. Otherwise cancelling the task, before or during the wait, disposes
    /// the subscription at once and throws `CancellationError` (where RxSwift, for a task cancelled
    /// before subscribing, waits for ever).
    public var value: Element {
        get async throws {
            try await AwaitBridge<Element>().value { finish in
                primitiveSequence.subscribe { event in finish(event) }
            }
        }
    }

    /// A Single whose subscription runs `work` in a new task (detached if `detached`); disposing
    /// the subscription cancels the task.
    public static func create(
        detached: Bool = false, priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> Single<Element> {
        create { observer in
            let deliver = UncheckedSendable(observer)
            let operation: @Sendable () async -> Void = {
                do {
                    deliver.value(.success(try await work()))
                } catch {
                    deliver.value(.failure(error))
                }
            }
            let task =
                detached
                ? Task.detached(priority: priority, operation: operation)
                : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element: Sendable {
    /// Subscribes and waits: the element, or `nil` if the Maybe completes without one; throws the
    /// error. Never blocks a thread.
    ///
    /// Cancellation follows the rule of `Single`'s `value`: it always subscribes first; an answer
    /// given during that subscription is returned (or thrown); otherwise cancelling the task disposes
    /// the subscription at once and throws `CancellationError`.
    public var value: Element? {
        get async throws {
            try await AwaitBridge<Element?>().value { finish in
                primitiveSequence.subscribe { event in
                    switch event {
                    case .success(let element): finish(.success(element))
                    case .completed: finish(.success(nil))
                    case .error(let error): finish(.failure(error))
                    }
                }
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes and waits for the completion; throws the error. Never blocks a thread.
    ///
    /// Cancellation follows the rule of `Single`'s `value`: it always subscribes first; a completion
    /// (or error) given during that subscription is returned (or thrown); otherwise cancelling the
    /// task disposes the subscription at once and throws `CancellationError`.
    public var value: Void {
        get async throws {
            try await AwaitBridge<Void>().value { finish in
                primitiveSequence.subscribe { event in
                    switch event {
                    case .completed: finish(.success(()))
                    case .error(let error): finish(.failure(error))
                    }
                }
            }
        }
    }
}
