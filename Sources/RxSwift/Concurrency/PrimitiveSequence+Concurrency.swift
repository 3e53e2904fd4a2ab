extension PrimitiveSequenceType where Trait == SingleTrait, Element: Sendable {
    /// Subscribes and waits for the element; throws the error, or `CancellationError` if the task is
    /// cancelled first (the subscription is then disposed at once). Never blocks a thread.
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
    /// error, or `CancellationError` if the task is cancelled first (the subscription is then
    /// disposed at once).
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
    /// Subscribes and waits for the completion; throws the error, or `CancellationError` if the task
    /// is cancelled first (the subscription is then disposed at once).
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
