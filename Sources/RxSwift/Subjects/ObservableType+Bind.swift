extension ObservableType {
    /// Subscribes `observers` to this sequence: every event, including a terminal one, is delivered
    /// to each of them in the order given. The subscription to this sequence ends at its terminal event.
    ///
    /// An observer that cannot take errors (a ``Binder``) asserts on one in debug builds.
    /// In RxSwift this lives in RxCocoa; swift-rx puts it in RxSwift so that it is available
    /// wherever observers are (RxCocoa must not declare it again).
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element {
        subscribe(
            onNext: { element in observers.forEach { $0.on(.next(element)) } },
            onError: { error in observers.forEach { $0.on(.error(error)) } },
            onCompleted: { observers.forEach { $0.on(.completed) } })
    }

    /// Subscribes `observers`, whose element is the optional of this sequence's element: every
    /// element is delivered wrapped, terminal events as they are.
    ///
    /// In RxSwift this lives in RxCocoa.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable
    where Observer.Element == Element? {
        subscribe(
            onNext: { element in observers.forEach { $0.on(.next(element)) } },
            onError: { error in observers.forEach { $0.on(.error(error)) } },
            onCompleted: { observers.forEach { $0.on(.completed) } })
    }

    /// Calls `binder` with this sequence and returns its result: a hook for binding functions
    /// (`observable.bind(to: label.rx.text)`-style helpers written as functions).
    ///
    /// In RxSwift this lives in RxCocoa.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Calls the curried `binder` with this sequence and `curriedArgument` and returns its result.
    ///
    /// In RxSwift this lives in RxCocoa.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext` to the elements of this sequence.
    ///
    /// Completion is ignored. An error is a programmer error for a binding: it stops debug builds
    /// with an assertion and is printed in release builds. In RxSwift this lives in RxCocoa.
    public func bind(
        onNext: @escaping (Element) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "bind(onNext:)", callerFileID, callerLine)
        return subscribe(onNext: onNext, onError: { error in rxBindingError(error) })
    }

    /// Subscribes `onNext`, which receives `object` (held weakly) with each element; elements that
    /// arrive after `object` was deallocated are dropped.
    ///
    /// Completion is ignored; an error asserts in debug builds, as in ``bind(onNext:isolation:callerFileID:callerLine:)``. In RxSwift
    /// this lives in RxCocoa.
    public func bind<Object: AnyObject>(
        with object: Object, onNext: @escaping (Object, Element) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Disposable
    {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "bind(onNext:)", callerFileID, callerLine)
        return subscribe(with: object, onNext: onNext, onError: { _, error in rxBindingError(error) })
    }
}
