import RxSwift

// Unlike `drive`, `emit` may be called from any thread, as in RxCocoa: a Signal replays nothing, so
// every event it delivers comes from its scheduler.

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Subscribes `observers`: each receives every event.
    ///
    /// - Returns: The subscription.
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element {
        asObservable().subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Subscribes `observers` of optional elements: each receives every element, wrapped.
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element? {
        asObservable().map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Makes every element the value of `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit(to relays: BehaviorRelay<Element>...) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes every element, wrapped, the value of `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit(to relays: BehaviorRelay<Element?>...) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit(to relays: PublishRelay<Element>...) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, wrapped, to `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit(to relays: PublishRelay<Element?>...) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit(to relays: ReplayRelay<Element>...) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, wrapped, to `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit(to relays: ReplayRelay<Element?>...) -> Disposable {
        emit(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Subscribes the handlers, which receive `object` (held weakly) first; once `object` is gone
    /// they are no longer called. There is no error handler: a Signal cannot error.
    ///
    /// - Parameters:
    ///   - object: The object handed to the handlers, held weakly.
    ///   - onNext: Called with each element.
    ///   - onCompleted: Called on completion.
    ///   - onDisposed: Called when the subscription ends, whatever the reason.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func emit<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes the handlers. There is no error handler: a Signal cannot error.
    ///
    /// - Parameters:
    ///   - onNext: Called with each element.
    ///   - onCompleted: Called on completion.
    ///   - onDisposed: Called when the subscription ends, whatever the reason.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    ///
    /// RxSwift: the same (RxCocoa).
    /// Inlinable, so that the subscription's sink is instantiated where the element type is concrete.
    @inlinable
    public func emit(
        onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "emit(onNext:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(onCompleted, isolation, "emit(onCompleted:)", callerFileID, callerLine)
        return asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes and ignores every event (keeps the sequence's side effects running).
    ///
    /// RxSwift: the same (RxCocoa).
    public func emit() -> Disposable {
        emit(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}
