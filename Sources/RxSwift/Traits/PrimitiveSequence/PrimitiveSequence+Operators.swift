// The operators every trait shares: each keeps the trait and forwards to the `Observable` operator of
// the same name, so the behaviour (events, ticks, disposal) is that operator's, documented there.

extension PrimitiveSequence {
    /// A sequence whose subscription runs `observableFactory` and subscribes to the trait it returns.
    /// See ``ObservableType/deferred(_:isolation:callerFileID:callerLine:)``.
    public static func deferred(
        _ observableFactory: @escaping () throws -> PrimitiveSequence<Trait, Element>,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        let observableFactory =
            isolation == nil
            ? observableFactory
            : rxIsolationChecked(observableFactory, isolation, "deferred", callerFileID, callerLine)
        return PrimitiveSequence(raw: Observable.deferred { try observableFactory().asObservable() })
    }

    /// Delays the events (an error at once, as ``ObservableType/delay(_:scheduler:)`` does).
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Delays the subscription. See ``ObservableType/delaySubscription(_:scheduler:)``.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Delivers the events on `scheduler`. See ``ObservableType/observe(on:)``.
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Subscribes (and disposes) on `scheduler`. See ``ObservableType/subscribe(on:)``.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }

    /// Continues with the sequence `handler` returns for an error. See ``ObservableType/catch(_:isolation:callerFileID:callerLine:)``.
    public func `catch`(
        _ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        let handler =
            isolation == nil
            ? handler : rxIsolationChecked(handler, isolation, "catch", callerFileID, callerLine)
        return PrimitiveSequence(raw: source.catch { try handler($0).asObservable() })
    }

    /// Resubscribes after each error. See ``ObservableType/retry()``.
    public func retry() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry())
    }

    /// Subscribes at most `maxAttemptCount` times. See ``ObservableType/retry(_:)``.
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Resubscribes when the sequence `notificationHandler` derives from the errors emits, as
    /// `ObservableType.retry(when:)` does.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        let notificationHandler =
            isolation == nil
            ? notificationHandler
            : rxIsolationChecked(notificationHandler, isolation, "retry(when:)", callerFileID, callerLine)
        return PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Resubscribes when the sequence `notificationHandler` derives from the errors emits.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        let notificationHandler =
            isolation == nil
            ? notificationHandler
            : rxIsolationChecked(notificationHandler, isolation, "retry(when:)", callerFileID, callerLine)
        return PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Prints every event. See ``ObservableType/debug(_:trimOutput:file:line:function:)``.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line,
        function: String = #function
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// A sequence that lives as long as a resource. See ``ObservableType/using(_:observableFactory:isolation:callerFileID:callerLine:)``.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Element> {
        let resourceFactory =
            isolation == nil
            ? resourceFactory
            : rxIsolationChecked(resourceFactory, isolation, "using", callerFileID, callerLine)
        let primitiveSequenceFactory =
            isolation == nil
            ? primitiveSequenceFactory
            : rxIsolationChecked(
                primitiveSequenceFactory, isolation, "using(primitiveSequenceFactory:)", callerFileID,
                callerLine)
        return PrimitiveSequence(
            raw: Observable.using(
                resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }))
    }

    /// Errors with `RxError.timeout` if nothing happens within `dueTime`. See
    /// ``ObservableType/timeout(_:scheduler:)``.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` if nothing happens within `dueTime`. See
    /// ``ObservableType/timeout(_:other:scheduler:)``.
    public func timeout(
        _ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }
}

extension PrimitiveSequence where Element: RxAbstractInteger {
    /// Delivers `0` after `dueTime`, then ends as the trait does. See
    /// ``ObservableType/timer(_:period:scheduler:)``.
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}
