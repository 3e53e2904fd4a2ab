/// The trait of ``Maybe``: one element, completion without an element, or an error.
public enum MaybeTrait {}

/// A sequence that delivers one element, or completes without one, or fails. RxJS: an observable of
/// at most one value; Combine: none.
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// What a ``Maybe`` delivers.
@frozen
public enum MaybeEvent<Element> {
    /// The one element.
    case success(Element)
    /// The sequence failed.
    case error(Swift.Error)
    /// The sequence completed without an element.
    case completed
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The observer `Maybe.create` hands to its subscribe closure.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// A Maybe whose subscription runs `subscribe`, which reports through the observer it is given
    /// (later calls are ignored) and returns what to dispose.
    public static func create(
        subscribe: @escaping (@escaping MaybeObserver) -> Disposable, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Maybe<Element> {
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
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    observer.onCompleted()
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer`, which receives one ``MaybeEvent``.
    public func subscribe(
        _ observer: @escaping (MaybeEvent<Element>) -> Void, isolation: (any Actor)? = #isolation,
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
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            }
        }
    }

    /// Subscribes with closures; `onDisposed` runs after the terminal event or on disposal. An error
    /// without `onError` goes to `Hooks.defaultErrorHandler`.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil, onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onSuccess =
            isolation == nil
            ? onSuccess
            : rxIsolationChecked(onSuccess, isolation, "subscribe(onSuccess:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError
            : rxIsolationChecked(onError, isolation, "subscribe(onError:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(
                onCompleted, isolation, "subscribe(onCompleted:)", callerFileID, callerLine)
        var succeeded = false
        return primitiveSequence.source.subscribe(
            onNext: { element in
                succeeded = true
                onSuccess?(element)
            },
            onError: onError,
            onCompleted: { if !succeeded { onCompleted?() } },
            onDisposed: onDisposed)
    }

    /// Subscribes with closures that receive `object` while it is alive (nothing once it is gone).
    public func subscribe<Object: AnyObject>(
        with object: Object, onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onSuccess =
            isolation == nil
            ? onSuccess
            : rxIsolationChecked(onSuccess, isolation, "subscribe(onSuccess:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError
            : rxIsolationChecked(onError, isolation, "subscribe(onError:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(
                onCompleted, isolation, "subscribe(onCompleted:)", callerFileID, callerLine)
        return subscribe(
            onSuccess: { [weak object] element in object.map { onSuccess?($0, element) } },
            onError: { [weak object] error in object.map { onError?($0, error) } },
            onCompleted: { [weak object] in object.map { onCompleted?($0) } },
            onDisposed: { [weak object] in object.map { onDisposed?($0) } })
    }

    /// A Maybe of `element`, delivered on subscription.
    public static func just(_ element: Element) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.just(element))
    }

    /// A Maybe of `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A Maybe that fails with `error` on subscription.
    public static func error(_ error: Swift.Error) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.error(error))
    }

    /// A Maybe that never delivers anything.
    public static func never() -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.never())
    }

    /// A Maybe that completes without an element on subscription.
    public static func empty() -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.empty())
    }

    /// Runs side effects around the events (see
    /// ``ObservableType/do(onNext:afterNext:onError:afterError:onCompleted:afterCompleted:onSubscribe:onSubscribed:onDispose:isolation:callerFileID:callerLine:)``);
    /// `onCompleted` and `afterCompleted` run also after a success, as the completion that follows it.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil, afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil, afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Maybe<Element> {
        // The Observable operator checks the closures' isolation.
        return PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe,
                onSubscribed: onSubscribed, onDispose: onDispose,
                isolation: isolation, callerFileID: callerFileID, callerLine: callerLine))
    }

    /// Keeps the element if `predicate` holds; otherwise completes without one.
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

    /// Transforms the element; a throwing `transform` fails the Maybe.
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Maybe<Result>
    {
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "map", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element; a `nil` result completes without an element.
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Maybe<Result> {
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "compactMap", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Continues with the Maybe that `selector` makes from the element.
    public func flatMap<Result>(
        _ selector: @escaping (Element) throws -> Maybe<Result>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Maybe<Result> {
        let selector =
            isolation == nil
            ? selector : rxIsolationChecked(selector, isolation, "flatMap", callerFileID, callerLine)
        return PrimitiveSequence(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Delivers `default` if the Maybe completes without an element.
    public func ifEmpty(default: Element) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(default: `default`))
    }

    /// Continues with `other` if the Maybe completes without an element.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(switchTo: other.asObservable()))
    }

    /// Continues with `other` if the Maybe completes without an element.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.ifEmpty(switchTo: other.asObservable()))
    }

    /// Replaces an error with `element`.
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// The RxSwift 5 spelling of ``catchAndReturn(_:)->Maybe<Self.Element>``.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Maybe<Element> {
        catchAndReturn(element)
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Combines the elements of the Maybes of `collection` with `resultSelector` once all have
    /// delivered (see ``ObservableType/zip(_:resultSelector:isolation:callerFileID:callerLine:)``); completes without an element as
    /// soon as one of them does.
    ///
    /// An empty `collection` delivers `resultSelector([])` on subscription (a throwing selector
    /// fails it), as the Single form does. RxSwift has no collection `zip` for Maybe (only the Single
    /// one and the 2…8 forms); this one follows the Single form's rules.
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

    /// Combines the elements of the Maybes of `collection` into an array once all have delivered.
    ///
    /// An empty `collection` delivers `[]` on subscription, as the Single form does (RxSwift has no
    /// collection `zip` for Maybe).
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> PrimitiveSequence<Trait, [Element]> where Collection.Element == PrimitiveSequence<Trait, Element> {
        PrimitiveSequence<Trait, Element>.zipped(collection) { $0 }
    }
}
