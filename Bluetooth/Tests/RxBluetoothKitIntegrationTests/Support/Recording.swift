import RxBlocking
import RxSwift

/// Every event of a subscription made now, kept until asked for: so that a test can start an
/// operation, act on the other side of the bus, and then wait for exactly what it expects. Disposing
/// the recording disposes the subscription.
final class Recording<Element>: Disposable, @unchecked Sendable {
    private let events = ReplaySubject<Event<Element>>.createUnbounded()
    private let subscription = SingleAssignmentDisposable()

    init(_ source: Observable<Element>) {
        subscription.setDisposable(source.materialize().subscribe(events))
    }

    /// A recording that lasts as long as `bag`'s subscriptions.
    convenience init(_ source: Observable<Element>, disposedBy bag: DisposeBag) {
        self.init(source)
        bag.insert(self)
    }

    func dispose() { subscription.dispose() }

    /// The first `count` elements, in order; throws the subscription's error if it failed before them,
    /// `RxError.timeout` if they did not all come within `timeout` seconds.
    func elements(_ count: Int, timeout: Double = 5) throws -> [Element] {
        try events.dematerialize().take(count).toBlocking(timeout: timeout).toArray()
    }

    /// The first element.
    func first(timeout: Double = 5) throws -> Element {
        guard let element = try elements(1, timeout: timeout).first else { throw RxError.noElements }
        return element
    }

    /// The error the subscription failed with (`nil` if it completed), waiting at most `timeout` seconds.
    func error(timeout: Double = 5) throws -> Error? {
        let end = try events.filter(\.isStopEvent).take(1).toBlocking(timeout: timeout).first()
        return end?.error
    }
}
