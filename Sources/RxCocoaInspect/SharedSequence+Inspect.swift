@_spi(SharedSequenceWrapping) import RxCocoa
import RxInspect
import RxSwift

extension SharedSequenceConvertibleType {
    /// Tags this ``Driver`` or ``Signal`` for the attached `Inspector`, as RxInspect's
    /// `ObservableType.inspect(_:)` does, and stays a sequence of the same strategy.
    ///
    /// Each observer's subscription is recorded under `tag` (a driver's replayed element is recorded
    /// as the `next` that observer received). The source stays shared: the tag adds a stage per
    /// observer, in front of the one shared subscription.
    ///
    /// Pausing the tag holds the notifications; stepping or resuming delivers them on the calling
    /// thread, so step a driver or a signal on the main thread (the inspector view does) to keep its
    /// promise of main-thread delivery.
    ///
    /// RxJS: rxjs-spy's `tag(…)`. RxSwift: none.
    public func inspect(_ tag: String) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(keepingContractOf: asSharedSequence().asObservable().inspect(tag))
    }
}
