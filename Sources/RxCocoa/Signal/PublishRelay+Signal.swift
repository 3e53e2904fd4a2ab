import RxSwift

extension PublishRelay {
    /// The relay as a ``Signal``: every value it accepts, observed on the signal scheduler.
    ///
    /// RxSwift: the same (RxCocoa).
    public func asSignal() -> Signal<Element> {
        SharedSequence(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}
