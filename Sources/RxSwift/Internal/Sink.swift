/// The non-generic root of every sink: it counts live sinks in debug builds, lets a subject keep its
/// observers in an array of a concrete type, and is a `Disposable` (doing nothing; operator sinks
/// override `dispose()`) that a producer hands back through ``asDisposable``. The sink classes are
/// `@usableFromInline` so that `on(_:)` inlines into the caller's module (DESIGN.md, "The hot path").
///
/// Thread-safety: `@unchecked Sendable` only so that it can be a `Disposable`; each subclass states
/// its own guarantees.
@usableFromInline
class AnySink: Disposable, @unchecked Sendable {
    @usableFromInline @inline(__always)
    init() {
        #if DEBUG
            Resources.incrementTotal()
        #endif
    }

    @usableFromInline
    func dispose() {}

    /// The source let go for good without ending (a subject deallocated): the sink disposes its upstream
    /// and, if nothing else drives it, tells downstream, so the chain is released with its source
    /// (DESIGN.md, "Lifetime"). No event is delivered. The caller holds this sink.
    @usableFromInline
    func sourceGone() {}

    /// This sink as the `Disposable` a producer returns, built from the non-generic type.
    @inline(__always)
    final var asDisposable: Disposable { self }

    #if DEBUG
        deinit {
            Resources.decrementTotal()
        }
    #endif
}

/// The receiving end of the internal pipeline; ``SinkObserver`` adapts the public `ObserverType`.
/// Senders guarantee the grammar: serialized calls, nothing after `terminate`.
@usableFromInline
class Sink<Element>: AnySink, @unchecked Sendable {

    @usableFromInline @inline(__always)
    override init() {}

    /// Whether this sink drops what arrives after its end and disposes its upstream when it ends, as
    /// `create`'s own sink does; if so, `create` hands it to its closure directly.
    @usableFromInline
    var guardsItsInput: Bool { false }

    @usableFromInline
    func next(_ element: Element) {
        rxAbstractMethod()
    }

    @usableFromInline
    func terminate(_ termination: Termination) {
        rxAbstractMethod()
    }

    /// Delivers a public `Event` by splitting it into the two calls.
    @inlinable
    final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): next(element)
        case .error(let error): terminate(.error(error))
        case .completed: terminate(.completed)
        }
    }
}

/// Forwards the internal calls to a public `ObserverType`.
final class ObserverTypeSink<Observer: ObserverType>: Sink<Observer.Element>, @unchecked Sendable {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func next(_ element: Observer.Element) {
        observer.on(.next(element))
    }

    override func terminate(_ termination: Termination) {
        observer.on(termination.event())
    }
}

/// Subscribes the sink inside an `AnyObserver` (`create { source.subscribe($0) }`) instead of
/// wrapping it as any other observer, which would build and split an `Event` per element
/// (the `subject → create { subscribe(observer) } → subscriber` benchmark). It does not pass
/// ``AnySink/sourceGone()`` on: the sink may have other sources, and the closure may keep its observer.
final class SinkForwardingSink<Element>: Sink<Element>, @unchecked Sendable {
    private let target: Sink<Element>

    init(_ target: Sink<Element>) {
        self.target = target
    }

    override func next(_ element: Element) {
        target.next(element)
    }

    override func terminate(_ termination: Termination) {
        target.terminate(termination)
    }
}

/// Presents an internal sink as a public `ObserverType` (`create`, custom observables, `AnyObserver`).
struct SinkObserver<Element>: ObserverType {
    let sink: Sink<Element>

    init(_ sink: Sink<Element>) {
        self.sink = sink
    }

    func on(_ event: Event<Element>) {
        sink.on(event)
    }

    /// The sink to subscribe for `observer`, unwrapping an observer that already wraps one.
    static func sink<Observer: ObserverType>(for observer: Observer) -> Sink<Element>
    where Observer.Element == Element {
        if let wrapped = observer as? SinkObserver<Element> { return wrapped.sink }
        if let wrapped = observer as? AnyObserver<Element>, let sink = wrapped.sink {
            return SinkForwardingSink(sink)
        }
        if let convertible = observer as? any SinkConvertible,
            let sink = convertible.asSink() as? Sink<Element>
        {
            return sink
        }
        return ObserverTypeSink(observer)
    }
}

/// Observers of the library (subjects, relays) that can receive events without building `Event`s.
protocol SinkConvertible {
    func asSink() -> AnyObject
}
