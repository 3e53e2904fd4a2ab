import RxSwift

@available(*, deprecated, message: "Variable is deprecated; use BehaviorRelay and its asDriver().")
extension Variable {
    /// The variable as a ``Driver``: its current value, then every value set, observed on the driver
    /// scheduler.
    ///
    /// RxSwift: the same (RxCocoa 4).
    public func asDriver() -> Driver<Element> {
        SharedSequence(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Makes every element the value of `variable`. Must be called on the main thread.
    ///
    /// RxSwift: the same (RxCocoa 4).
    @available(*, deprecated, message: "Variable is deprecated; drive a BehaviorRelay.")
    public func drive(_ variable: Variable<Element>) -> Disposable {
        drive(onNext: { variable.value = $0 })
    }

    /// Makes every element, wrapped, the value of `variable`. Must be called on the main thread.
    ///
    /// RxSwift: the same (RxCocoa 4).
    @available(*, deprecated, message: "Variable is deprecated; drive a BehaviorRelay.")
    public func drive(_ variable: Variable<Element?>) -> Disposable {
        drive(onNext: { variable.value = $0 })
    }
}
