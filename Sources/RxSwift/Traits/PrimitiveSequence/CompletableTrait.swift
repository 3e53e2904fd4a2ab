/// The trait of ``Completable``: completion or an error, never an element.
public enum CompletableTrait {}

/// A sequence that only completes or fails. RxJS: an observable of no values; Combine: none.
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>

/// What a ``Completable`` delivers.
@frozen
public enum CompletableEvent {
    /// The sequence failed.
    case error(Swift.Error)
    /// The sequence completed.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// The observer `Completable.create` hands to its subscribe closure.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A Completable whose subscription runs `subscribe`, which reports through the observer it is
    /// given (later calls are ignored) and returns what to dispose.
    public static func create(
        subscribe: @escaping (@escaping CompletableObserver) -> Disposable, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Completable {
        let subscribe =
            isolation == nil
            ? subscribe
            : rxIsolationChecked(subscribe, isolation, "create(subscribe:)", callerFileID, callerLine)
        let source = Observable<Never>.create { observer in
            subscribe { event in
                switch event {
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer`, which receives one ``CompletableEvent``.
    public func subscribe(
        _ observer: @escaping (CompletableEvent) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Disposable
    {
        let observer =
            isolation == nil
            ? observer : rxIsolationChecked(observer, isolation, "subscribe", callerFileID, callerLine)
        return primitiveSequence.source.subscribe { event in
            switch event {
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            }
        }
    }

    /// Subscribes with closures; `onDisposed` runs after the terminal event or on disposal. An error
    /// without `onError` goes to `Hooks.defaultErrorHandler`.
    public func subscribe(
        onCompleted: (() -> Void)? = nil, onError: ((Swift.Error) -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(
                onCompleted, isolation, "subscribe(onCompleted:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError
            : rxIsolationChecked(onError, isolation, "subscribe(onError:)", callerFileID, callerLine)
        return primitiveSequence.source.subscribe(
            onNext: nil, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that receive `object` while it is alive (nothing once it is gone).
    public func subscribe<Object: AnyObject>(
        with object: Object, onCompleted: ((Object) -> Void)? = nil, onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(
                onCompleted, isolation, "subscribe(onCompleted:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError
            : rxIsolationChecked(onError, isolation, "subscribe(onError:)", callerFileID, callerLine)
        return primitiveSequence.source.subscribe(
            with: object, onNext: nil, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// A Completable that fails with `error` on subscription.
    public static func error(_ error: Swift.Error) -> Completable {
        PrimitiveSequence(raw: Observable.error(error))
    }

    /// A Completable that never terminates.
    public static func never() -> Completable {
        PrimitiveSequence(raw: Observable.never())
    }

    /// A Completable that completes on subscription.
    public static func empty() -> Completable {
        PrimitiveSequence(raw: Observable.empty())
    }

    /// Runs side effects around the events (see
    /// ``ObservableType/do(onNext:afterNext:onError:afterError:onCompleted:afterCompleted:onSubscribe:onSubscribed:onDispose:isolation:callerFileID:callerLine:)``).
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil, afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Completable {
        // The Observable operator checks the closures' isolation.
        return PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose,
                isolation: isolation, callerFileID: callerFileID, callerLine: callerLine))
    }

    /// Completes after this Completable and then `second`, one after the other; this one is released
    /// when `second` starts (a `concat` of a known count). RxSwift: the same.
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(primitiveSequence, second)
    }

    /// Completes after every Completable of `sequence`, subscribed one after another (lazily). Its
    /// length being unknown, `sequence` is held until it runs out, as in RxSwift.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable
    where Sequence.Element == Completable {
        PrimitiveSequence(raw: Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Completes after every Completable of `collection`, subscribed one after another; the
    /// collection is released when its last Completable starts. RxSwift: the same.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable
    where Collection.Element == Completable {
        PrimitiveSequence(raw: Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Completes after every Completable of `sources`, subscribed one after another; they are
    /// released when the last one starts. RxSwift: the same.
    public static func concat(_ sources: Completable...) -> Completable {
        PrimitiveSequence(raw: Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Completes when every Completable of `sources`, all subscribed at once, has completed.
    public static func zip(_ sources: Completable...) -> Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Completes when every Completable of `sources`, all subscribed at once, has completed.
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable
    where Collection.Element == Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Completes when every Completable of `sources`, all subscribed at once, has completed; the
    /// first error ends everything.
    public static func merge(_ sources: Completable...) -> Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Completes when every Completable of `sources`, all subscribed at once, has completed.
    public static func merge(_ sources: [Completable]) -> Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Completes when every Completable of `sources`, all subscribed at once, has completed.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Completable
    where Collection.Element == Completable {
        PrimitiveSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
    }
}
