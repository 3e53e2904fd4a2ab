/// The non-generic root of every sink: it counts live sinks in debug builds, and lets a subject keep
/// its observers in an array of a concrete type, so that emitting needs no generic metadata.
///
/// The sink classes are `@usableFromInline` so that the public event entry points (`on(_:)` of the
/// subjects and of `AnyObserver`) can be inlined into the caller's module: there `Event<Element>` is
/// a concrete type, and splitting it into the two calls costs no run-time metadata lookup (the Performance article).
///
/// It is also a `Disposable` (doing nothing; operator sinks override `dispose()`), so that a producer
/// can hand its sink back through ``asDisposable``: an existential built from this non-generic class
/// needs no metadata lookup, where one built from a generic sink class looks the class's metadata up
/// on every subscription.
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

    /// Disposes the subscription the sink stands for; overridden by operator sinks.
    @usableFromInline
    func dispose() {}

    /// The source this sink is subscribed to has let go of it for good without ending the sequence
    /// (a subject deallocated while the subscription was undisposed): nothing will arrive from it.
    /// The subscription ends as a disposal would end it: the sink disposes its upstream subscription
    /// (running the cleanup attached there: `do(onDispose:)`, `using`'s resource, a `create`
    /// closure's disposable) and, if nothing else drives it, tells its downstream, so that the chain,
    /// whose sinks and handle hold one another, is released with its source (the Contracts article, "Lifetime": a
    /// subscription nobody disposes lives exactly as long as its source) and `subscribe`'s
    /// `onDisposed` runs. No event is delivered. An operator with several sources does this once all
    /// are gone. The caller holds this sink.
    @usableFromInline
    func sourceGone() {}

    /// This sink as the `Disposable` a producer returns, built from the non-generic static type.
    @inline(__always)
    final var asDisposable: Disposable { self }

    #if DEBUG
        deinit {
            Resources.decrementTotal()
        }
    #endif
}

/// The receiving end of the internal pipeline: element delivery and termination are separate calls.
///
/// Every operator's sink subclasses this; the public `ObserverType` surface is adapted by
/// ``SinkObserver``. Senders guarantee the grammar: serialized calls, nothing after `terminate`.
@usableFromInline
class Sink<Element>: AnySink, @unchecked Sendable {

    @usableFromInline @inline(__always)
    override init() {}

    /// Whether this sink drops elements and terminal events that arrive after its terminal event or
    /// its disposal, and disposes its upstream when it ends, as `create`'s own sink does; if so,
    /// `create` hands it to its closure directly.
    @usableFromInline
    var guardsItsInput: Bool { false }

    /// Delivers one element.
    @usableFromInline
    func next(_ element: Element) {
        rxAbstractMethod()
    }

    /// Delivers the terminal event.
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

/// Subscribes, in place of an `AnyObserver` that wraps a library sink (the observer of `create` given
/// to `subscribe`, as in `create { source.subscribe($0) }`), that sink: each element goes on as a `next`
/// call. Wrapped as any other observer, every element would become an `Event` built and split again
/// in unspecialized code, several times a `map` stage's cost (see the
/// `subject → create { subscribe(observer) } → subscriber` benchmark).
///
/// A forwarder rather than the sink itself: it does not pass ``AnySink/sourceGone()`` on, because
/// the sink may have other sources (a `create` closure may subscribe its observer to several) and the
/// closure may have kept its observer, so one source going away must not end it. (Knowing when every
/// copy of the observer is gone costs an object per `create` subscription: see "Contracts",
/// "Lifetime".)
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

/// Presents an internal sink as a public `ObserverType` (for `create`, custom observables and
/// `AnyObserver`).
struct SinkObserver<Element>: ObserverType {
    let sink: Sink<Element>

    init(_ sink: Sink<Element>) {
        self.sink = sink
    }

    func on(_ event: Event<Element>) {
        sink.on(event)
    }

    /// The sink to subscribe for `observer`: an observer that already wraps a sink is unwrapped, so
    /// library observers never pay for two adapters.
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
