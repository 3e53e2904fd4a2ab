import RxSwift

private let driveOffMainThread = """
    `drive*` family of methods can be only called from `MainThread`.
    This is required to ensure that the last replayed `Driver` element is delivered on `MainThread`.
    """

/// Traps unless called on the main thread, as RxCocoa does: a Driver replays its latest element on
/// the subscribing thread. While a test mocks ``SharingScheduler`` the mocked scheduler is the one
/// that matters, so the check is skipped (RxCocoa checks even then; this lets Swift Testing, which
/// runs tests off the main thread, drive Drivers in virtual time).
/// Not inlinable itself (a cold check); usable from the inlinable `drive` forms.
@usableFromInline
func ensureDrivingOnMainThread() {
    if !SharingScheduler.isMocked {
        MainScheduler.ensureRunningOnMainThread(errorMessage: driveOffMainThread)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Subscribes `observers`: each receives every event. Must be called on the main thread.
    ///
    /// - Returns: The subscription.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable
    where Observer.Element == Element {
        ensureDrivingOnMainThread()
        return asObservable().subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Subscribes `observers` of optional elements: each receives every element, wrapped. Must be
    /// called on the main thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable
    where Observer.Element == Element? {
        ensureDrivingOnMainThread()
        return asObservable().map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Makes every element the value of `relays` (completion is ignored). Must be called on the
    /// main thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
        ensureDrivingOnMainThread()
        return drive(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes every element, wrapped, the value of `relays` (completion is ignored). Must be called
    /// on the main thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
        ensureDrivingOnMainThread()
        return drive(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` (completion is ignored). Must be called on the main thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
        ensureDrivingOnMainThread()
        return drive(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element, wrapped, to `relays` (completion is ignored). Must be called on the
    /// main thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable {
        ensureDrivingOnMainThread()
        return drive(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Calls `transformation` with this sequence and returns its result: a hook for binding
    /// functions. Must be called on the main thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        ensureDrivingOnMainThread()
        return transformation(asObservable())
    }

    /// Calls the curried `with` with this sequence and `curriedArgument` and returns its result.
    /// Must be called on the main thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        ensureDrivingOnMainThread()
        return with(asObservable())(curriedArgument)
    }

    /// Subscribes the handlers, which receive `object` (held weakly) first; once `object` is gone
    /// they are no longer called. There is no error handler: a Driver cannot error. Must be called
    /// on the main thread.
    ///
    /// - Parameters:
    ///   - object: The object handed to the handlers, held weakly.
    ///   - onNext: Called with each element.
    ///   - onCompleted: Called on completion.
    ///   - onDisposed: Called when the subscription ends, whatever the reason.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func drive<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "drive(onNext:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(onCompleted, isolation, "drive(onCompleted:)", callerFileID, callerLine)
        ensureDrivingOnMainThread()
        return asObservable().subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes the handlers. There is no error handler: a Driver cannot error. Must be called on
    /// the main thread.
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
    public func drive(
        onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "drive(onNext:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(onCompleted, isolation, "drive(onCompleted:)", callerFileID, callerLine)
        ensureDrivingOnMainThread()
        return asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes and ignores every event (keeps the sequence's side effects running). Must be
    /// called on the main thread.
    ///
    /// RxSwift: the same (RxCocoa).
    public func drive() -> Disposable {
        drive(onNext: nil, onCompleted: nil, onDisposed: nil)
    }
}
