// The RxSwift 4–5 names of the shared trait operators, kept so that tutorials compile; each forwards
// to today's spelling.

extension PrimitiveSequence {
    /// Deprecated spelling of ``observe(on:)``.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        observe(on: scheduler)
    }

    /// Deprecated spelling of ``subscribe(on:)``.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        subscribe(on: scheduler)
    }

    /// Deprecated spelling of ``catch(_:isolation:callerFileID:callerLine:)``.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(
        _ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        let handler =
            isolation == nil
            ? handler : rxIsolationChecked(handler, isolation, "catchError", callerFileID, callerLine)
        return `catch`(handler)
    }

    /// Deprecated spelling of `retry(when:)` for a handler of a given error type.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        let notificationHandler =
            isolation == nil
            ? notificationHandler
            : rxIsolationChecked(notificationHandler, isolation, "retryWhen", callerFileID, callerLine)
        return retry(when: notificationHandler)
    }

    /// Deprecated spelling of `retry(when:)` for a handler of any error.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        let notificationHandler =
            isolation == nil
            ? notificationHandler
            : rxIsolationChecked(notificationHandler, isolation, "retryWhen", callerFileID, callerLine)
        return retry(when: notificationHandler)
    }
}
