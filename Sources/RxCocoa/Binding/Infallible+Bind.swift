import RxSwift

// `bind` for Infallibles, as RxCocoa has it: an Infallible cannot error, so these bindings cannot hit
// the binding-error path of their `Observable` counterparts.

extension InfallibleType {
    /// Subscribes `observers`: each receives every event (elements, then completion).
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element {
        asObservable().subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Subscribes `observers` of optional elements: each receives every element, wrapped.
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element? {
        asObservable().map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Calls `binder` with this sequence and returns its result: a hook for binding functions.
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Calls the curried `binder` with this sequence and `curriedArgument` and returns its result.
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext`, which receives `object` (held weakly) with each element; nothing is
    /// called once `object` is gone. Completion is ignored.
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind<Object: AnyObject>(
        with object: Object, onNext: @escaping (Object, Element) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Disposable
    {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "bind(onNext:)", callerFileID, callerLine)
        return asObservable().subscribe(with: object, onNext: onNext)
    }

    /// Subscribes `onNext` to the elements. Completion is ignored.
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind(
        onNext: @escaping (Element) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "bind(onNext:)", callerFileID, callerLine)
        return asObservable().subscribe(onNext: onNext)
    }

    /// Sends every element to `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, wrapped, to `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes every element the value of `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes every element, wrapped, the value of `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, wrapped, to `relays` (completion is ignored).
    ///
    /// RxSwift: the same (RxCocoa).
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bind(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}
