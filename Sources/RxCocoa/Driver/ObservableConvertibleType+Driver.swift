import RxSwift

extension ObservableConvertibleType {
    /// This sequence as a ``Driver``: its events observed on the driver scheduler, an error
    /// replaced by `onErrorJustReturn` followed by completion, and the result shared with replay of
    /// the latest element.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorJustReturn: onErrorJustReturn)
    }

    /// This sequence as a ``Driver``: its events observed on the driver scheduler and, after an
    /// error, the events of `onErrorDriveWith`.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorDriveWith: onErrorDriveWith)
    }

    /// This sequence as a ``Driver``: its events observed on the driver scheduler and, after an
    /// error, the events of the driver `onErrorRecover` makes of it.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asDriver(
        onErrorRecover: @escaping (_ error: Swift.Error) -> Driver<Element>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Driver<Element> {
        let onErrorRecover =
            isolation == nil
            ? onErrorRecover
            : rxIsolationChecked(
                onErrorRecover, isolation, "asDriver(onErrorRecover:)", callerFileID, callerLine)
        return asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorRecover: onErrorRecover)
    }
}
