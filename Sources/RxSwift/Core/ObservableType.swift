/// A push-based sequence of events that observers can subscribe to.
///
/// Every operator is defined on this protocol. Custom conformers only implement
/// ``subscribe(_:)``; `asObservable()` wraps them so the operator pipeline can use them.
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer` to the sequence.
    ///
    /// - Returns: A disposable that cancels the subscription; after `dispose()` returns nothing more is
    ///   delivered to `observer` from the disposing thread's point of view.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// Wraps this sequence in an ``Observable``.
    public func asObservable() -> Observable<Element> {
        if let observable = self as? Observable<Element> { return observable }
        return CustomObservable(source: self)
    }
}

/// Adapts a user-written `ObservableType` to the internal sink pipeline.
///
/// As in RxSwift (where `asObservable()` wraps the source in `Observable.create`), the adapter enforces
/// the grammar a hand-written source might break: nothing is forwarded after a terminal event or
/// disposal, and a terminal event disposes the source's subscription.
final class CustomObservable<Source: ObservableType>: Observable<Source.Element>, @unchecked Sendable {
    private let source: Source

    init(source: Source) {
        self.source = source
        super.init()
    }

    override func subscribe(sink downstream: Sink<Source.Element>) -> Disposable {
        let sink = ForwardingSink(downstream: downstream)
        sink.setUpstream(source.subscribe(SinkObserver(sink)))
        return sink.asDisposable
    }
}
