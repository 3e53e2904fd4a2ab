import RxSwift

extension BehaviorRelay {
    /// The relay as a ``Driver``: its current value, then every value it accepts, observed on the
    /// driver scheduler.
    ///
    /// RxSwift: the same (RxCocoa).
    public func asDriver() -> Driver<Element> {
        SharedSequence(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension InfallibleType {
    /// The sequence as a ``Driver``: its events observed on the driver scheduler (it cannot error).
    ///
    /// RxSwift: the same (RxCocoa).
    public func asDriver() -> Driver<Element> {
        SharedSequence(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}
