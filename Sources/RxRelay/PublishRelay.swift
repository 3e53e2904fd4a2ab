import RxSwift

/// A `PublishSubject` that cannot terminate: it delivers each accepted element to the observers
/// subscribed at that moment, and never errors or completes.
///
/// Use it for events of a UI or a model where an error would be a bug. It is safe to call
/// ``accept(_:)`` from several threads and re-entrantly from an observer: elements are serialized.
///
/// RxSwift: `PublishRelay`; Combine: `PassthroughSubject<Element, Never>`.
public final class PublishRelay<Element>: ObservableType, Sendable {
    private let subject = PublishSubject<Element>()

    /// Creates a relay.
    public init() {}

    /// Delivers `event` to every subscribed observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`; it receives the elements accepted from now on, and never a terminal
    /// event.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable sequence that never terminates.
    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }

    /// The relay as an `Infallible` (a relay never errors).
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}
