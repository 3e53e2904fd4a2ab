extension ObservableType {
    /// Maps each element to a sequence and merges the elements of all of them.
    ///
    /// Every inner sequence is subscribed when its source element arrives, on that element's thread,
    /// and all stay subscribed together; their elements are delivered serialized, in arrival order.
    /// Completes when the source and every inner sequence have completed (the source's subscription
    /// ends when it completes). The first error, from the source, an inner sequence or `selector`,
    /// is delivered and disposes everything. No scheduler is used.
    ///
    /// - Parameters:
    ///   - selector: Maps a source element to the sequence to merge.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The elements of every inner sequence.
    ///
    /// RxJS: `mergeMap`; Combine: `flatMap(maxPublishers: .unlimited)`.
    @inlinable
    public func flatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Source.Element> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMap", callerFileID, callerLine)
        return MergeObservable(source: asObservable(), mode: .all) { try selector($0).asObservable() }
    }

    /// Maps an element to a sequence only while no earlier inner sequence is active, and delivers its
    /// elements; source elements that arrive meanwhile are dropped (`selector` is not called for them).
    ///
    /// Completes when the source and the active inner sequence have completed; errors as
    /// ``flatMap(_:isolation:callerFileID:callerLine:)``. No scheduler is used.
    ///
    /// - Parameters:
    ///   - selector: Maps a source element to the sequence to mirror.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The elements of the inner sequences that were started.
    ///
    /// RxJS: `exhaustMap`; Combine: none.
    @inlinable
    public func flatMapFirst<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Source.Element> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMapFirst", callerFileID, callerLine)
        return MergeObservable(source: asObservable(), mode: .first) { try selector($0).asObservable() }
    }

    /// Maps each element to a sequence and delivers those sequences' elements one sequence after
    /// another: an inner sequence is subscribed when the previous one completes.
    ///
    /// `selector` runs when the source element arrives; its sequence waits its turn. Completes when the
    /// source and every inner sequence have completed; errors as ``flatMap(_:isolation:callerFileID:callerLine:)``. No scheduler is used.
    ///
    /// - Parameters:
    ///   - selector: Maps a source element to the sequence to concatenate.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The elements of the inner sequences, in the order of the source elements.
    ///
    /// RxJS: `concatMap`; Combine: `flatMap(maxPublishers: .max(1))`.
    @inlinable
    public func concatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Source.Element> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "concatMap", callerFileID, callerLine)
        return MergeObservable(source: asObservable(), mode: .limited(1)) { try selector($0).asObservable() }
    }
}
