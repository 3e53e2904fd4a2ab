import RxSwift

/// A `ReplaySubject` that cannot terminate: it replays the latest accepted elements (up to a buffer
/// size, or all of them) to each new observer, then delivers every accepted element; it never errors
/// or completes.
///
/// It is safe to call ``accept(_:)`` from several threads and re-entrantly from an observer.
///
/// RxSwift: `ReplayRelay`.
public final class ReplayRelay<Element>: ObservableType, Sendable {
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// Creates a relay that replays at most `bufferSize` elements to each new observer.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// Creates a relay that replays every element it ever accepted.
    ///
    /// The buffer grows without limit: use it only for sequences known to be short.
    public static func createUnbound() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// Remembers `event` for replay and delivers it to every subscribed observer.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`; it receives the buffered elements, then every accepted element, and
    /// never a terminal event.
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
