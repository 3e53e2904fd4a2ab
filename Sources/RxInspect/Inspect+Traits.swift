import RxSwift

// Driver and Signal live in RxCocoa, and RxInspect depends on RxSwift only: their `inspect` is in
// the RxCocoaInspect product.

extension PrimitiveSequence where Trait == SingleTrait {
    /// `ObservableType.inspect(_:)` for a `Single`.
    public func inspect(_ tag: String) -> Single<Element> {
        asObservable().inspect(tag).asSingle()
    }
}

extension PrimitiveSequence where Trait == MaybeTrait {
    /// `ObservableType.inspect(_:)` for a `Maybe`.
    public func inspect(_ tag: String) -> Maybe<Element> {
        asObservable().inspect(tag).asMaybe()
    }
}

extension PrimitiveSequence where Trait == CompletableTrait, Element == Never {
    /// `ObservableType.inspect(_:)` for a `Completable`.
    public func inspect(_ tag: String) -> Completable {
        asObservable().inspect(tag).asCompletable()
    }
}

extension Infallible {
    /// `ObservableType.inspect(_:)` for an `Infallible` (which never errors, so neither
    /// does the tagged sequence).
    public func inspect(_ tag: String) -> Infallible<Element> {
        asObservable().inspect(tag).asInfallible(onErrorFallbackTo: .empty())
    }
}
