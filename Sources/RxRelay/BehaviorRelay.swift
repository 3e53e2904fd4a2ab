import RxSwift

/// A `BehaviorSubject` that cannot terminate: it holds a current value, delivers it to each new
/// observer, then every accepted element; it never errors or completes.
///
/// It is safe to call ``accept(_:)`` and read ``value`` from several threads.
///
/// RxSwift: `BehaviorRelay`; Combine: `CurrentValueSubject<Element, Never>`.
public final class BehaviorRelay<Element>: ObservableType, Sendable {
    private let subject: BehaviorSubject<Element>

    /// Creates a relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value: the initial value or the last accepted element.
    public var value: Element {
        // The subject is never terminated nor disposed, so reading it cannot fail.
        try! subject.value()
    }

    /// Makes `event` the current value and delivers it to every subscribed observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`; it receives the current value, then every accepted element, and never
    /// a terminal event.
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
