/// The trait of ``Single``: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence that delivers exactly one element or an error. RxJS: an observable of one value;
/// Combine: `Future`.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a ``Single`` delivers: its element, or an error.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The observer `Single.create` hands to its subscribe closure.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A Single whose subscription runs `subscribe`, which reports the result through the observer
    /// it is given (later calls are ignored) and returns what to dispose.
    public static func create(
        subscribe: @escaping (@escaping SingleObserver) -> Disposable, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Single<Element> {
        let subscribe =
            isolation == nil
            ? subscribe
            : rxIsolationChecked(subscribe, isolation, "create(subscribe:)", callerFileID, callerLine)
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer`, which receives one ``SingleEvent``.
    ///
    /// A Single built with `PrimitiveSequence(raw:)`-style code that completes without an element
    /// reports `RxError.noElements` (RxSwift stops the program in debug builds instead).
    public func subscribe(
        _ observer: @escaping (SingleEvent<Element>) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Disposable
    {
        let observer =
            isolation == nil
            ? observer : rxIsolationChecked(observer, isolation, "subscribe", callerFileID, callerLine)
        var delivered = false
        return primitiveSequence.source.subscribe { event in
            guard !delivered else { return }
            delivered = true
            switch event {
            case .next(let element): observer(.success(element))
            case .error(let error): observer(.failure(error))
            case .completed: observer(.failure(RxError.noElements))
            }
        }
    }

    /// Subscribes with closures for the element and the error; `onDisposed` runs after either, or on
    /// disposal. An error without `onFailure` goes to `Hooks.defaultErrorHandler`.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil, onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil, isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID,
        callerLine: UInt = #line
    ) -> Disposable {
        let onSuccess =
            isolation == nil
            ? onSuccess
            : rxIsolationChecked(onSuccess, isolation, "subscribe(onSuccess:)", callerFileID, callerLine)
        let onFailure =
            isolation == nil
            ? onFailure
            : rxIsolationChecked(onFailure, isolation, "subscribe(onFailure:)", callerFileID, callerLine)
        return primitiveSequence.source.subscribe(
            onNext: onSuccess, onError: onFailure, onCompleted: nil, onDisposed: onDisposed)
    }

    /// Subscribes with closures that receive `object` while it is alive (nothing once it is gone).
    public func subscribe<Object: AnyObject>(
        with object: Object, onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onSuccess =
            isolation == nil
            ? onSuccess
            : rxIsolationChecked(onSuccess, isolation, "subscribe(onSuccess:)", callerFileID, callerLine)
        let onFailure =
            isolation == nil
            ? onFailure
            : rxIsolationChecked(onFailure, isolation, "subscribe(onFailure:)", callerFileID, callerLine)
        return primitiveSequence.source.subscribe(
            with: object, onNext: onSuccess, onError: onFailure, onCompleted: nil, onDisposed: onDisposed)
    }

    /// The RxSwift 5 spelling of ``subscribe(onSuccess:onFailure:onDisposed:isolation:callerFileID:callerLine:)``.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil, onError: @escaping (Swift.Error) -> Void,
        onDisposed: (() -> Void)? = nil, isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID,
        callerLine: UInt = #line
    ) -> Disposable {
        let onSuccess =
            isolation == nil
            ? onSuccess
            : rxIsolationChecked(onSuccess, isolation, "subscribe(onSuccess:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError
            : rxIsolationChecked(onError, isolation, "subscribe(onError:)", callerFileID, callerLine)
        return subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }

    /// A Single of `element`, delivered on subscription.
    public static func just(_ element: Element) -> Single<Element> {
        PrimitiveSequence(raw: Observable.just(element))
    }

    /// A Single of `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        PrimitiveSequence(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A Single that fails with `error` on subscription.
    public static func error(_ error: Swift.Error) -> Single<Element> {
        PrimitiveSequence(raw: Observable.error(error))
    }

    /// A Single that never delivers anything.
    public static func never() -> Single<Element> {
        PrimitiveSequence(raw: Observable.never())
    }

    /// Runs side effects around the events; the closures are those of
    /// ``ObservableType/do(onNext:afterNext:onError:afterError:onCompleted:afterCompleted:onSubscribe:onSubscribed:onDispose:isolation:callerFileID:callerLine:)``.
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil, afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil, afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Single<Element> {
        let onSuccess =
            isolation == nil
            ? onSuccess
            : rxIsolationChecked(onSuccess, isolation, "do(onSuccess:)", callerFileID, callerLine)
        let afterSuccess =
            isolation == nil
            ? afterSuccess
            : rxIsolationChecked(afterSuccess, isolation, "do(afterSuccess:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError : rxIsolationChecked(onError, isolation, "do(onError:)", callerFileID, callerLine)
        let afterError =
            isolation == nil
            ? afterError
            : rxIsolationChecked(afterError, isolation, "do(afterError:)", callerFileID, callerLine)
        let onSubscribe =
            isolation == nil
            ? onSubscribe
            : rxIsolationChecked(onSubscribe, isolation, "do(onSubscribe:)", callerFileID, callerLine)
        let onSubscribed =
            isolation == nil
            ? onSubscribed
            : rxIsolationChecked(onSubscribed, isolation, "do(onSubscribed:)", callerFileID, callerLine)
        return PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Transforms the element; a throwing `transform` fails the Single.
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Single<Result>
    {
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "map", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element; a `nil` result completes the Maybe without an element.
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Maybe<Result> {
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "compactMap", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Keeps the element if `predicate` holds; otherwise the Maybe completes without one.
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Maybe<
        Element
    > {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "filter", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the Single that `selector` makes from the element.
    public func flatMap<Result>(
        _ selector: @escaping (Element) throws -> Single<Result>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Single<Result> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMap", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Continues with the Maybe that `selector` makes from the element.
    public func flatMapMaybe<Result>(
        _ selector: @escaping (Element) throws -> Maybe<Result>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Maybe<Result> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMapMaybe", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Continues with the Completable that `selector` makes from the element.
    public func flatMapCompletable(
        _ selector: @escaping (Element) throws -> Completable, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Completable {
        let selector =
            isolation == nil
            ? selector
            : rxIsolationChecked(selector, isolation, "flatMapCompletable", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Replaces an error with `element`.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// The RxSwift 5 spelling of ``catchAndReturn(_:)->Single<Self.Element>``.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Single<Element> {
        catchAndReturn(element)
    }

    /// The same events as a ``Maybe``.
    public func asMaybe() -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source)
    }

    /// Drops the element: a ``Completable`` that completes when the Single succeeds.
    public func asCompletable() -> Completable {
        PrimitiveSequence(raw: primitiveSequence.source.ignoreElements())
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Combines the elements of the Singles of `collection` with `resultSelector` once all have
    /// delivered (see ``ObservableType/zip(_:resultSelector:isolation:callerFileID:callerLine:)``).
    ///
    /// An empty `collection` succeeds on subscription with `resultSelector([])` (a throwing selector
    /// fails it). RxSwift: the same.
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "zip(resultSelector:)", callerFileID, callerLine)
        return PrimitiveSequence<Trait, Element>.zipped(collection, resultSelector: resultSelector)
    }

    /// Combines the elements of the Singles of `collection` into an array once all have delivered.
    ///
    /// An empty `collection` succeeds on subscription with `[]`. RxSwift: the same.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> PrimitiveSequence<Trait, [Element]> where Collection.Element == PrimitiveSequence<Trait, Element> {
        PrimitiveSequence<Trait, Element>.zipped(collection) { $0 }
    }
}
