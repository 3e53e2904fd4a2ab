// The element type's name before RxSwift 5 renamed it to `Element`; tutorials of the RxSwift 4 era
// write `Observable<E>` and `extension ObservableType where E == …`.

extension ObservableConvertibleType {
    /// The element type under its RxSwift 4 name.
    @available(*, deprecated, renamed: "Element")
    public typealias E = Element
}

extension ObserverType {
    /// The element type under its RxSwift 4 name.
    @available(*, deprecated, renamed: "Element")
    public typealias E = Element
}
