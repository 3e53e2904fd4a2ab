/// The base class of every observable sequence in the library.
///
/// Thread-safety: an `Observable` is an immutable description of how to produce events; subscribing
/// creates the mutable state (sinks), so an `Observable` may be shared across threads and actors.
/// Closures given to operators run on whatever thread delivers the events, as in RxSwift.
public class Observable<Element>: ObservableType, @unchecked Sendable {
    init() {}

    /// Subscribes `observer` to the sequence.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subscribe(sink: SinkObserver.sink(for: observer))
    }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> {
        self
    }

    /// The internal subscription entry point: producers override it to run their sink.
    func subscribe(sink: Sink<Element>) -> Disposable {
        rxAbstractMethod()
    }
}

/// The name RxSwift also exports for ``Observable``, for code that shadows `Observable`.
public typealias RxObservable<Element> = Observable<Element>

/// The integer types accepted by `range`, `interval` and `timer`.
public typealias RxAbstractInteger = FixedWidthInteger

func rxAbstractMethod(file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Abstract method", file: file, line: line)
}
