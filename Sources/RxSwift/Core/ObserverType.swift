/// A type that receives the events of an observable sequence.
public protocol ObserverType {
    /// The type of elements the observer receives.
    associatedtype Element

    /// Delivers one event. Implementations may assume events arrive serialized and that nothing
    /// follows a terminal event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Delivers `.next(element)`.
    public func onNext(_ element: Element) {
        on(.next(element))
    }

    /// Delivers `.completed`.
    public func onCompleted() {
        on(.completed)
    }

    /// Delivers `.error(error)`.
    public func onError(_ error: any Swift.Error) {
        on(.error(error))
    }
}
