// The operators of `Infallible` that combine sequences or switch to inner ones, forwarded as those of
// `Infallible+Transforming.swift` are.

extension ObservableType {
    /// Mirrors the Infallible `selector` makes from the latest element, as an ``Infallible``.
    ///
    /// The source (an `Observable`) or `selector` can still fail. RxSwift lets that error through
    /// the `Infallible` it returns; here it cannot be delivered: it goes to
    /// `Hooks.defaultErrorHandler`, as an unhandled error would, and the result completes.
    public func flatMapLatest<Source: InfallibleType>(
        _ selector: @escaping (Element) throws -> Source, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Source.Element> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMapLatest", callerFileID, callerLine)
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        return Infallible(
            flatMapLatest { try selector($0).asObservable() as Observable<Source.Element> }
                .catch { error in
                    Hooks.defaultErrorHandler(callStack, error)
                    return .empty()
                })
    }
}

extension InfallibleType {
    /// Combines the latest elements of the Infallibles of `collection` with `resultSelector`.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) -> Element,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "combineLatest(resultSelector:)", callerFileID, callerLine)
        return Infallible(
            Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Combines the latest elements of the Infallibles of `collection` into arrays.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<[Element]>
    where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible<[Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }

    /// Delivers this Infallible's elements, then `second`'s.
    public func concat<Source: InfallibleType>(_ second: Source) -> Infallible<Element>
    where Source.Element == Element {
        Infallible(asObservable().concat(second.asObservable()))
    }

    /// Delivers the elements of the Infallibles of `sequence`, one after another (lazily).
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Infallible<Element>
    where Sequence.Element == Infallible<Element> {
        Infallible(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Delivers the elements of the Infallibles of `collection`, one after another.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<Element>
    where Collection.Element == Infallible<Element> {
        Infallible(Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Delivers the elements of `sources`, one after another.
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Delivers an element only after `dueTime` without another. See ``ObservableType/debounce(_:scheduler:)``.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// Delivers at most one element per `dueTime`. See ``ObservableType/throttle(_:latest:scheduler:)``.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<
        Element
    > {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Takes elements while `predicate` holds. See ``ObservableType/take(while:behavior:isolation:callerFileID:callerLine:)``.
    public func take(
        while predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<
        Element
    > {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "take(while:)", callerFileID, callerLine)
        return Infallible(asObservable().take(while: predicate, behavior: behavior))
    }

    /// Takes elements until `predicate` holds. See ``ObservableType/take(until:behavior:isolation:callerFileID:callerLine:)``.
    public func take(
        until predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<
        Element
    > {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "take(until:)", callerFileID, callerLine)
        return Infallible(asObservable().take(until: predicate, behavior: behavior))
    }

    /// Takes the elements delivered within `duration`. See ``ObservableType/take(for:scheduler:)``.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().take(for: duration, scheduler: scheduler))
    }

    /// Skips the elements delivered within `duration`. See ``ObservableType/skip(_:scheduler:)``.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().skip(duration, scheduler: scheduler))
    }

    /// Pairs each element with `obj` while it is alive; completes once it is gone. See
    /// ``ObservableType/withUnretained(_:resultSelector:isolation:callerFileID:callerLine:)``.
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Out> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "withUnretained(resultSelector:)", callerFileID, callerLine)
        return Infallible(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj` while it is alive; completes once it is gone.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Infallible<(Object, Element)> {
        Infallible(asObservable().withUnretained(obj))
    }
}
