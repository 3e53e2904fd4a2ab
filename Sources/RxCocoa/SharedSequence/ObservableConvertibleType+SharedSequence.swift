import RxSwift

extension ObservableConvertibleType {
    /// This sequence as a shared sequence of strategy `S`: its events observed on `S.scheduler`,
    /// an error replaced by `onErrorJustReturn` followed by completion, and the result shared.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorJustReturn: Element
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// This sequence as a shared sequence of strategy `S`: its events observed on `S.scheduler`,
    /// and after an error, the events of `onErrorDriveWith`. The result is shared.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { _ in onErrorDriveWith.asObservable() })
    }

    /// This sequence as a shared sequence of strategy `S`: its events observed on `S.scheduler`,
    /// and after an error, the events of the shared sequence `onErrorRecover` makes of it. The
    /// result is shared.
    ///
    /// RxSwift: the same (RxCocoa).
    @inlinable
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self,
        onErrorRecover: @escaping (_ error: Swift.Error) -> SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { error in onErrorRecover(error).asObservable() })
    }
}
