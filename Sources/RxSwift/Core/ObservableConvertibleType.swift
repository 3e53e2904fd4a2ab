/// A type that can be converted to an ``Observable``.
public protocol ObservableConvertibleType {
    /// The type of elements in the sequence.
    associatedtype Element

    /// Returns the observable sequence this value represents.
    func asObservable() -> Observable<Element>
}
