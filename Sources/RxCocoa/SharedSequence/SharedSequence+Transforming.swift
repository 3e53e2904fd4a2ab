import RxSwift

// The operators RxCocoa defines on shared sequences that transform one sequence (the combining ones
// are in `SharedSequence+Combining.swift`). Each forwards to the `Observable` operator of the
// same name and shares the result again with the strategy; the closures cannot throw (a shared
// sequence cannot error). Time operators run their timers on the strategy's scheduler.

extension SharedSequenceConvertibleType {
    /// Delivers `selector` applied to each element.
    ///
    /// RxSwift: the same (RxCocoa).
    @_disfavoredOverload
    @inlinable
    public func map<Result>(
        _ selector: @escaping (Element) -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<SharingStrategy, Result>
    {
        checkedMap(
            selector, isolation: isolation, callerFileID: callerFileID, callerLine: callerLine)
    }

    /// The body of both `map`s.
    @inlinable
    func checkedMap<Result>(
        _ selector: @escaping (Element) -> Result, isolation: (any Actor)?, callerFileID: StaticString, callerLine: UInt
    )
        -> SharedSequence<SharingStrategy, Result>
    {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "map", callerFileID, callerLine)
        // Driver and Signal: the map runs inside the share (one producer per stage, not two).
        if let replays = SharedSequence<SharingStrategy, Element>.fusedShareReplays {
            return SharedSequence(raw: asObservable()._mapShared(replays: replays, selector))
        }
        return SharedSequence(asObservable().map(selector))
    }

    /// Delivers the non-nil results of `selector` applied to each element.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func compactMap<Result>(
        _ selector: @escaping (Element) -> Result?, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<SharingStrategy, Result>
    {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "compactMap", callerFileID, callerLine)
        return SharedSequence(asObservable().compactMap(selector))
    }

    /// Delivers the elements for which `predicate` returns `true`.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func filter(
        _ predicate: @escaping (Element) -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<SharingStrategy, Element>
    {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "filter", callerFileID, callerLine)
        if let replays = SharedSequence<SharingStrategy, Element>.fusedShareReplays {
            return SharedSequence(raw: asObservable()._filterShared(replays: replays, predicate))
        }
        return SharedSequence(asObservable().filter(predicate))
    }

    /// Maps each element to a shared sequence and delivers the elements of the latest one,
    /// disposing the previous one.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func flatMapLatest<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<Sharing, Result>
    {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMapLatest", callerFileID, callerLine)
        return SharedSequence(asObservable().flatMapLatest(selector))
    }

    /// Maps each element to a shared sequence and delivers its elements, ignoring the elements that
    /// arrive while the current inner sequence has not completed.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func flatMapFirst<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<Sharing, Result>
    {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMapFirst", callerFileID, callerLine)
        return SharedSequence(asObservable().flatMapFirst(selector))
    }

    /// Maps each element to a shared sequence and merges the elements of all of them.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func flatMap<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<Sharing, Result>
    {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMap", callerFileID, callerLine)
        return SharedSequence(asObservable().flatMap(selector))
    }

    /// Calls the given actions on the sequence's events and subscription, and passes the events on.
    ///
    /// - Parameters:
    ///   - onNext: Called with each element before it is delivered.
    ///   - afterNext: Called with each element after it was delivered.
    ///   - onCompleted: Called before completion is delivered.
    ///   - afterCompleted: Called after completion was delivered.
    ///   - onSubscribe: Called before the source is subscribed.
    ///   - onSubscribed: Called after the source was subscribed.
    ///   - onDispose: Called when the subscription ends, whatever the reason.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func `do`(
        onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil, afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        // The Observable operator checks the closures' isolation.
        return SharedSequence(
            asObservable().do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose,
                isolation: isolation, callerFileID: callerFileID, callerLine: callerLine))
    }

    /// Prints every event and subscription of the sequence, tagged with `identifier` (by default
    /// the calling file, line and function).
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line,
        function: String = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(
            asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Delivers each element whose key, computed by `keySelector`, differs from the previous
    /// element's.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) -> Key, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<SharingStrategy, Element>
    {
        let keySelector =
            isolation == nil
            ? keySelector
            : rxIsolationChecked(keySelector, isolation, "distinctUntilChanged", callerFileID, callerLine)
        return SharedSequence(asObservable().distinctUntilChanged(keySelector))
    }

    /// Delivers each element that `comparer` does not find equal to the previous delivered one.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<SharingStrategy, Element>
    {
        let comparer =
            isolation == nil
            ? comparer
            : rxIsolationChecked(comparer, isolation, "distinctUntilChanged", callerFileID, callerLine)
        return SharedSequence(asObservable().distinctUntilChanged(comparer))
    }

    /// Delivers each element whose key, computed by `keySelector`, `comparer` does not find equal to
    /// the previous delivered element's.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> SharedSequence<SharingStrategy, Element> {
        let keySelector =
            isolation == nil
            ? keySelector
            : rxIsolationChecked(keySelector, isolation, "distinctUntilChanged", callerFileID, callerLine)
        let comparer =
            isolation == nil
            ? comparer
            : rxIsolationChecked(
                comparer, isolation, "distinctUntilChanged(comparer:)", callerFileID, callerLine)
        return SharedSequence(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Delivers the running result of `accumulator`, starting from `seed`, for each element.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func scan<A>(
        _ seed: A, accumulator: @escaping (A, Element) -> A, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<SharingStrategy, A>
    {
        let accumulator =
            isolation == nil
            ? accumulator
            : rxIsolationChecked(accumulator, isolation, "scan(accumulator:)", callerFileID, callerLine)
        return SharedSequence(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Delivers the elements after the first `count`.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().skip(count))
    }

    /// Delivers `element` on subscription, then the sequence's elements.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func startWith(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().startWith(element))
    }
}

extension SharedSequence {
    /// Delivers `selector` applied to each element: the protocol's `map`, declared on the type too.
    ///
    /// Why twice: a library written for RxSwift may add `map(to value:)` (RxSwiftExt's deprecated
    /// spelling of `mapTo`) to shared sequences. Then, inside a generic extension, Swift resolves a
    /// trailing-closure `driver.map { … }` to that method, with the closure as the value, whenever
    /// the protocol's `map` has defaulted parameters after the closure (`isolation:` and the
    /// caller's position). A member of the type itself ranks first, as RxSwift's `map` does.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func map<Result>(
        _ selector: @escaping (Element) -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<SharingStrategy, Result>
    {
        checkedMap(
            selector, isolation: isolation, callerFileID: callerFileID, callerLine: callerLine)
    }
}
