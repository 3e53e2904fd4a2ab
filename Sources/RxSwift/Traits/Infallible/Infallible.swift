/// A type that is, or can be turned into, an ``Infallible``: the operators of `Infallible` are
/// defined on it, as in RxSwift.
public protocol InfallibleType: ObservableConvertibleType {}

/// A sequence that never errors: elements, then perhaps completion.
///
/// The guarantee is structural, and stronger than RxSwift's. `create` hands out an observer that can
/// only send elements and completion; ``ObservableConvertibleType/asInfallible(onErrorJustReturn:)``
/// and its siblings replace errors; and the operators take closures that cannot throw and inner
/// sequences that are `Infallible` themselves. Where RxSwift's `Infallible` operators take throwing
/// closures (`deferred`) and so let an error through, swift-rx's do not throw: code that throws
/// there must handle the error (for example with `asInfallible(onErrorJustReturn:)` on an
/// `Observable`).
///
/// Thread-safety: an immutable struct around an `Observable`, which is itself safe to share.
public struct Infallible<Element>: InfallibleType, @unchecked Sendable {
    private let source: Observable<Element>

    /// Wraps `source`, which must never error.
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The underlying observable sequence, which never errors.
    public func asObservable() -> Observable<Element> {
        source
    }
}

/// What an ``Infallible`` delivers: an element, or its completion.
public enum InfallibleEvent<Element> {
    /// An element.
    case next(Element)
    /// The sequence completed.
    case completed

    /// The same event as an `Event`.
    public var event: Event<Element> {
        switch self {
        case .next(let element): return .next(element)
        case .completed: return .completed
        }
    }
}

extension Infallible {
    /// The observer `Infallible.create` hands to its subscribe closure.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// An Infallible whose subscription runs `subscribe`, which sends elements and completion
    /// through the observer it is given (it cannot send an error) and returns what to dispose.
    public static func create(
        subscribe: @escaping (@escaping InfallibleObserver) -> Disposable, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Element> {
        let subscribe =
            isolation == nil
            ? subscribe
            : rxIsolationChecked(subscribe, isolation, "create(subscribe:)", callerFileID, callerLine)
        return Infallible(
            Observable.create { observer in
                subscribe { event in observer.on(event.event) }
            })
    }
}

extension InfallibleType {
    /// Subscribes with closures for the elements and the completion; `onDisposed` runs after the
    /// completion or on disposal.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "subscribe(onNext:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(
                onCompleted, isolation, "subscribe(onCompleted:)", callerFileID, callerLine)
        return asObservable().subscribe(onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes with closures that receive `object` while it is alive (nothing once it is gone).
    public func subscribe<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "subscribe(onNext:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(
                onCompleted, isolation, "subscribe(onCompleted:)", callerFileID, callerLine)
        return asObservable().subscribe(
            with: object, onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes `on`, which receives every event (never an error).
    public func subscribe(
        _ on: @escaping (Event<Element>) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let on =
            isolation == nil ? on : rxIsolationChecked(on, isolation, "subscribe", callerFileID, callerLine)
        return asObservable().subscribe(on)
    }
}

extension ObservableConvertibleType {
    /// The sequence as an ``Infallible`` that delivers `element` and completes in place of an error.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// The sequence as an ``Infallible`` that continues with `infallible` in place of an error.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// The sequence as an ``Infallible`` that continues with the sequence `onErrorRecover` makes from
    /// the error.
    public func asInfallible(
        onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Infallible<Element> {
        let onErrorRecover =
            isolation == nil
            ? onErrorRecover
            : rxIsolationChecked(
                onErrorRecover, isolation, "asInfallible(onErrorRecover:)", callerFileID, callerLine)
        return Infallible(asObservable().catch { onErrorRecover($0).asObservable() })
    }
}

extension InfallibleType where Element: Sendable {
    /// The elements as an `AsyncStream` (it cannot fail): reading `values` subscribes; cancelling the
    /// iterating task disposes the subscription at once.
    public var values: AsyncStream<Element> {
        let source = asObservable()
        return AsyncStream { continuation in
            let subscription = source.subscribe(
                onNext: { continuation.yield($0) }, onCompleted: { continuation.finish() })
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}
