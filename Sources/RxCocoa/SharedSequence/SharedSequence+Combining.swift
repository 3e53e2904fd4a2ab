import RxSwift

// RxCocoa's shared-sequence operators that combine or time sequences, forwarded as those of
// `SharedSequence+Transforming.swift` are.

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Delivers each element that differs from the previous one.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged())
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// Delivers the elements of the latest inner sequence, disposing the previous one.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence() }.switchLatest())
    }

    /// Merges the elements of every inner sequence.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence() }.merge())
    }

    /// Merges the elements of the inner sequences, at most `maxConcurrent` of them subscribed at a
    /// time (the others wait their turn).
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence() }.merge(maxConcurrent: maxConcurrent))
    }
}

extension SharedSequenceConvertibleType {
    /// Merges the elements of `sources`.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public static func merge<Collection: Swift.Collection>(_ sources: Collection)
        -> SharedSequence<SharingStrategy, Element>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources`.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public static func merge(_ sources: [SharedSequence<SharingStrategy, Element>])
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources`.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }
}

extension SharedSequence {
    /// Delivers the elements of each sequence of `sequence` in turn, subscribing to the next when
    /// the previous one completes.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence)
        -> SharedSequence<SharingStrategy, Element>
    where Sequence.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Delivers the elements of each sequence of `collection` in turn, subscribing to the next when
    /// the previous one completes.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public static func concat<Collection: Swift.Collection>(_ collection: Collection)
        -> SharedSequence<SharingStrategy, Element>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(collection.map { $0.asObservable() }))
    }
}

extension SharedSequenceConvertibleType {
    /// Combines each element with the latest element of `second`, if it has delivered one (elements
    /// before that are dropped).
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType, ResultType>(
        _ second: SecondO, resultSelector: @escaping (Element, SecondO.Element) -> ResultType,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> SharedSequence<SharingStrategy, ResultType> where SecondO.SharingStrategy == SharingStrategy {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "withLatestFrom(resultSelector:)", callerFileID, callerLine)
        return SharedSequence(asObservable().withLatestFrom(second.asSharedSequence(), resultSelector: resultSelector))
    }

    /// Delivers the latest element of `second` on each element of this sequence, if `second` has
    /// delivered one.
    ///
    /// Unlike the `resultSelector` form, `second` may have another sharing strategy, as in RxCocoa.
    @inlinable
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType>(_ second: SecondO)
        -> SharedSequence<SharingStrategy, SecondO.Element>
    {
        SharedSequence(asObservable().withLatestFrom(second.asSharedSequence()))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Delivers `resultSelector` applied to `obj` (held weakly) and each element; completes when
    /// `obj` is gone.
    ///
    /// RxSwift: the same (RxCocoa; for Signals only: a Driver's replay would keep `obj` alive).
    @inlinable
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> SharedSequence<SharingStrategy, Out> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "withUnretained(resultSelector:)", callerFileID, callerLine)
        return SharedSequence(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Delivers `obj` (held weakly) with each element; completes when `obj` is gone.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Unavailable for Driver, as in RxCocoa: use `drive(with:onNext:onCompleted:onDisposed:)`.
    @available(
        *, unavailable,
        message: "withUnretained is not available for Driver; use `drive(with:onNext:onCompleted:onDisposed:)`"
    )
    @inlinable
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> SharedSequence<SharingStrategy, Out> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "withUnretained(resultSelector:)", callerFileID, callerLine)
        return SharedSequence(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Unavailable for Driver, as in RxCocoa: use `drive(with:onNext:onCompleted:onDisposed:)`.
    @available(
        *, unavailable,
        message: "withUnretained is not available for Driver; use `drive(with:onNext:onCompleted:onDisposed:)`"
    )
    @inlinable
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence(asObservable().withUnretained(obj) { ($0, $1) })
    }
}

extension SharedSequenceConvertibleType {
    /// Delivers an element, then the latest element at most once per `dueTime` (all timed on the
    /// strategy's scheduler); with `latest: false`, drops the elements that arrive meanwhile.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Delivers an element only once `dueTime` has passed without another (timed on the strategy's
    /// scheduler).
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Delivers every event `dueTime` later (timed on the strategy's scheduler).
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }
}

extension SharedSequence {
    /// Combines the elements of `collection`'s sequences pairwise with `resultSelector`.
    ///
    /// RxSwift: the same (RxCocoa), whose selector may throw; this one may not (a shared sequence
    /// cannot error).
    @inlinable
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "zip(resultSelector:)", callerFileID, callerLine)
        return SharedSequence<SharingStrategy, Result>(
            Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Combines the elements of `collection`'s sequences pairwise into arrays.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public static func zip<Collection: Swift.Collection>(_ collection: Collection)
        -> SharedSequence<SharingStrategy, [Element]>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.zip(collection.map { $0.asObservable() }))
    }

    /// Combines the latest elements of `collection`'s sequences with `resultSelector` whenever one
    /// delivers, once all have.
    ///
    /// RxSwift: the same (RxCocoa), whose selector may throw; this one may not.
    @inlinable
    public static func combineLatest<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "combineLatest(resultSelector:)", callerFileID, callerLine)
        return SharedSequence<SharingStrategy, Result>(
            Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Combines the latest elements of `collection`'s sequences into arrays whenever one delivers,
    /// once all have.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection)
        -> SharedSequence<SharingStrategy, [Element]>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }
}
