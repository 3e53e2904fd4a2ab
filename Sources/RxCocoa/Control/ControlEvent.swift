import RxSwift

/// A type that is, or can be turned into, a ``ControlEvent``.
///
/// RxSwift: `ControlEventType` (RxCocoa).
public protocol ControlEventType: ObservableType {
    /// The value as a control event.
    func asControlEvent() -> ControlEvent<Element>
}

/// The events of a control (a tap, an edit ending, a delegate call): a sequence that never errors,
/// is subscribed on the main scheduler and replays nothing.
///
/// Write one for your own type in an `extension Reactive where Base: …`, from any observable of
/// the events: `ControlEvent(events: source)`.
///
/// Thread-safety: an immutable struct around an `Observable`.
///
/// RxSwift: `ControlEvent` (RxCocoa). It completes when the control goes away (the source's
/// completion), and delivers on the main scheduler only if the source does, as in RxCocoa.
public struct ControlEvent<PropertyType>: ControlEventType, @unchecked Sendable {
    /// The element type.
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// A control event of `events`, which must not error and should deliver on the main thread;
    /// it is subscribed on `ConcurrentMainScheduler.instance` (at once when subscribed from the main
    /// thread).
    public init<Ev: ObservableType>(events: Ev) where Ev.Element == Element {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an observable sequence.
    public func asObservable() -> Observable<Element> {
        events
    }

    /// Returns `self`.
    public func asControlEvent() -> ControlEvent<Element> {
        self
    }
}
