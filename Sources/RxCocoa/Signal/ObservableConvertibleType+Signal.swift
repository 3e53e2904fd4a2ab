import RxSwift

extension ObservableConvertibleType {
    /// This sequence as a ``Signal``: its events observed on the signal scheduler, an error
    /// replaced by `onErrorJustReturn` followed by completion, and the result shared without replay.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorJustReturn: onErrorJustReturn)
    }

    /// This sequence as a ``Signal``: its events observed on the signal scheduler and, after an
    /// error, the events of `onErrorSignalWith`.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorDriveWith: onErrorSignalWith)
    }

    /// This sequence as a ``Signal``: its events observed on the signal scheduler and, after an
    /// error, the events of the signal `onErrorRecover` makes of it.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asSignal(
        onErrorRecover: @escaping (_ error: Swift.Error) -> Signal<Element>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Signal<Element> {
        let onErrorRecover =
            isolation == nil
            ? onErrorRecover
            : rxIsolationChecked(
                onErrorRecover, isolation, "asSignal(onErrorRecover:)", callerFileID, callerLine)
        return asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorRecover: onErrorRecover)
    }
}
