// The filtering operators' names of RxSwift 4 and 5, forwarding to today's spellings (which live in
// Operators/Filtering/).

extension ObservableType {
    /// Deprecated spelling of ``element(at:)``.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }

    /// Deprecated spelling of ``skip(while:isolation:callerFileID:callerLine:)``.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "skipWhile", callerFileID, callerLine)
        return skip(while: predicate)
    }

    /// Deprecated spelling of ``take(while:behavior:isolation:callerFileID:callerLine:)`` (with the default, exclusive behavior).
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "takeWhile", callerFileID, callerLine)
        return take(while: predicate)
    }

    /// Deprecated spelling of ``take(until:behavior:isolation:callerFileID:callerLine:)`` (RxSwift 5's predicate form of `takeUntil`).
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(
        _ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let predicate =
            isolation == nil
            ? predicate
            : rxIsolationChecked(predicate, isolation, "takeUntil(predicate:)", callerFileID, callerLine)
        return take(until: predicate, behavior: behavior)
    }

    /// Deprecated spelling of ``take(for:scheduler:)`` (RxSwift 5).
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }
}
