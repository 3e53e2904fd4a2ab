// The operators of `Infallible` that transform one sequence (the combining ones are in
// `Infallible+Combining.swift`): each forwards to the `Observable` operator of the same name, whose
// documentation gives its events, ticks and disposal; closures cannot throw and inner sequences are
// `Infallible`, so the result cannot error (see `Infallible`).

extension InfallibleType {
    /// An Infallible that completes at once.
    public static func empty() -> Infallible<Element> { Infallible(.empty()) }

    /// An Infallible that never delivers anything.
    public static func never() -> Infallible<Element> { Infallible(.never()) }

    /// An Infallible of `element`, then completion.
    public static func just(_ element: Element) -> Infallible<Element> { Infallible(.just(element)) }

    /// An Infallible of `element`, then completion, on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(.just(element, scheduler: scheduler))
    }

    /// An Infallible of `elements`, on `scheduler`.
    public static func of(
        _ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> {
        Infallible(.from(elements, scheduler: scheduler))
    }

    /// An Infallible of the elements of `array`, on `scheduler`.
    public static func from(
        _ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> {
        Infallible(.from(array, scheduler: scheduler))
    }

    /// An Infallible of the elements of `sequence`, on `scheduler`.
    public static func from<Source: Sequence>(
        _ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> where Source.Element == Element {
        Infallible(.from(sequence, scheduler: scheduler))
    }

    /// An Infallible whose subscription subscribes to the one `factory` makes. (RxSwift's `factory`
    /// may throw, which lets an error through an Infallible; this one may not.)
    public static func deferred(
        _ factory: @escaping () -> Infallible<Element>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Infallible<Element>
    {
        let factory =
            isolation == nil
            ? factory : rxIsolationChecked(factory, isolation, "deferred", callerFileID, callerLine)
        return Infallible(.deferred { factory().asObservable() })
    }

    /// Transforms each element.
    public func map<Result>(
        _ transform: @escaping (Element) -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Infallible<Result>
    {
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "map", callerFileID, callerLine)
        return Infallible(asObservable().map(transform))
    }

    /// Keeps the elements for which `predicate` holds.
    public func filter(
        _ predicate: @escaping (Element) -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<
        Element
    > {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "filter", callerFileID, callerLine)
        return Infallible(asObservable().filter(predicate))
    }

    /// Transforms each element, dropping `nil` results.
    public func compactMap<Result>(
        _ transform: @escaping (Element) -> Result?, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Infallible<Result>
    {
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "compactMap", callerFileID, callerLine)
        return Infallible(asObservable().compactMap(transform))
    }

    /// Accumulates the elements, delivering each intermediate result.
    public func scan<Seed>(
        _ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Seed> {
        let accumulator =
            isolation == nil
            ? accumulator
            : rxIsolationChecked(accumulator, isolation, "scan(accumulator:)", callerFileID, callerLine)
        return Infallible(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Accumulates the elements in place, delivering each intermediate result.
    public func scan<Seed>(
        into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Seed> {
        let accumulator =
            isolation == nil
            ? accumulator
            : rxIsolationChecked(accumulator, isolation, "scan(accumulator:)", callerFileID, callerLine)
        return Infallible(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Merges the Infallibles `selector` makes from the elements.
    public func flatMap<Source: InfallibleType>(
        _ selector: @escaping (Element) -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Source.Element> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMap", callerFileID, callerLine)
        return Infallible(asObservable().flatMap { selector($0).asObservable() })
    }

    /// Mirrors the Infallible `selector` makes from the latest element.
    public func flatMapLatest<Source: InfallibleType>(
        _ selector: @escaping (Element) -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Source.Element> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMapLatest", callerFileID, callerLine)
        return Infallible(asObservable().flatMapLatest { selector($0).asObservable() })
    }

    /// Mirrors the Infallible `selector` makes from an element while none is active.
    public func flatMapFirst<Source: InfallibleType>(
        _ selector: @escaping (Element) -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Source.Element> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMapFirst", callerFileID, callerLine)
        return Infallible(asObservable().flatMapFirst { selector($0).asObservable() })
    }

    /// Concatenates the Infallibles `selector` makes from the elements.
    public func concatMap<Source: InfallibleType>(
        _ selector: @escaping (Element) -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<
        Source.Element
    > {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "concatMap", callerFileID, callerLine)
        return Infallible(asObservable().concatMap { selector($0).asObservable() })
    }

    /// Skips the first `count` elements.
    public func skip(_ count: Int) -> Infallible<Element> {
        Infallible(asObservable().skip(count))
    }

    /// Takes the first `count` elements, then completes.
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible(asObservable().take(count))
    }

    /// Takes elements until `other` delivers an element.
    public func take<Source: InfallibleType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other.asObservable()))
    }

    /// Starts with `elements`. See ``ObservableType/startWith(_:)``.
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible(StartWithObservable(source: asObservable(), elements: elements))
    }

    /// Shares one subscription among subscribers. See ``ObservableType/share(replay:scope:)``.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope))
    }

    /// Combines each element with the latest of `second`.
    public func withLatestFrom<Source: InfallibleType, Result>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) -> Result,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Result> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "withLatestFrom(resultSelector:)", callerFileID, callerLine)
        return Infallible(asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// Replaces each element with the latest of `second`.
    public func withLatestFrom<Source: InfallibleType>(_ second: Source) -> Infallible<Source.Element> {
        Infallible(asObservable().withLatestFrom(second.asObservable()))
    }

    /// Runs side effects around the events (closures that cannot throw).
    public func `do`(
        onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil, afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Element> {
        // The Observable operator checks the closures' isolation.
        return Infallible(
            asObservable().do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose,
                isolation: isolation, callerFileID: callerFileID, callerLine: callerLine))
    }

    /// Prints every event. See ``ObservableType/debug(_:trimOutput:file:line:function:)``.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line,
        function: String = #function
    ) -> Infallible<Element> {
        Infallible(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Merges the elements of `sources`.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources`.
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible(.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources`. (RxSwift's collection form concatenates instead, which we
    /// take for a bug.)
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Infallible<Element>
    where Collection.Element == Infallible<Element> {
        Infallible(.merge(sources.map { $0.asObservable() }))
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops elements equal to the one before.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}

extension InfallibleType {
    /// Drops elements whose key equals the one before.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) -> Key, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Element> {
        let keySelector =
            isolation == nil
            ? keySelector
            : rxIsolationChecked(keySelector, isolation, "distinctUntilChanged", callerFileID, callerLine)
        return Infallible(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops elements whose key `comparer` finds equal to the one before.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Element> {
        let keySelector =
            isolation == nil
            ? keySelector
            : rxIsolationChecked(keySelector, isolation, "distinctUntilChanged", callerFileID, callerLine)
        let comparer =
            isolation == nil
            ? comparer
            : rxIsolationChecked(
                comparer, isolation, "distinctUntilChanged(comparer:)", callerFileID, callerLine)
        return Infallible(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements that `comparer` finds equal to the one before.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Element> {
        let comparer =
            isolation == nil
            ? comparer
            : rxIsolationChecked(comparer, isolation, "distinctUntilChanged", callerFileID, callerLine)
        return Infallible(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops elements whose property at `keyPath` equals the one before.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element>
    {
        Infallible(asObservable().distinctUntilChanged(at: keyPath))
    }
}
