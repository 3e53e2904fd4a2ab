/// The base class of every observable sequence in the library.
///
/// Thread-safety: an `Observable` is an immutable description of how to produce events; subscribing
/// creates the mutable state (sinks), so an `Observable` may be shared across threads and actors.
/// Closures given to operators run on whatever thread delivers the events, as in RxSwift.
public class Observable<Element>: ObservableType, @unchecked Sendable {
    /// Whether subscribing may start synchronous emission scheduled on the current-thread trampoline
    /// (`of`, `from`, `range`, `generate`, `repeatElement`, … and every operator downstream of one).
    /// Such a chain is subscribed inside a trampoline, as RxSwift subscribes every chain, so that the
    /// whole chain is in place before the first element and an early end (an error, `take`) stops the
    /// source. Other chains skip the trampoline and its thread-local lookup (DESIGN §3).
    ///
    /// An operator passes on its source's value; a source whose emission is not known in advance
    /// (`deferred`, `using`, a custom `ObservableType`) says `true`.
    /// Set once, by the initializer of the subclass.
    @usableFromInline @exclusivity(unchecked) var needsTrampoline = false

    @usableFromInline
    init() {}

    /// Subscribes `observer` to the sequence.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let sink = SinkObserver.sink(for: observer)
        if mustSubscribeInTrampoline {
            return CurrentThreadScheduler.instance.schedule(()) { _ in self.subscribe(sink: sink) }
        }
        return subscribe(sink: sink)
    }

    /// Whether a subscription made from outside the library (a `subscribe` call, `bind`, a test
    /// scheduler) must run inside a new trampoline: the chain ``needsTrampoline`` and none is
    /// running. Callers test it before building the escaping closure for the trampoline, so that the
    /// usual subscription allocates nothing for it.
    @inlinable
    final var mustSubscribeInTrampoline: Bool {
        needsTrampoline && CurrentThreadScheduler.isScheduleRequired
    }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> {
        self
    }

    /// For a source that delivers everything synchronously when subscribed and owns nothing to
    /// dispose (`just`, `empty`, `error`): passes its elements to `next` and returns its terminal
    /// event, without a subscription. Every other source returns `nil` and delivers nothing.
    ///
    /// Operators that subscribe to a new sequence per element (`flatMap`, `flatMapLatest`, …) use it
    /// to skip the inner subscription's objects for such sources; what they deliver is the same as if
    /// they had subscribed.
    @usableFromInline
    func deliverConstant(_ next: (Element) -> Void) -> Termination? {
        nil
    }

    /// Whether ``deliverConstant(_:)`` delivers this source without a subscription.
    @usableFromInline
    var isConstantSource: Bool { false }

    /// The internal subscription entry point: producers override it to run their sink.
    @usableFromInline
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
