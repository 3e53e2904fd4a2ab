import Synchronization

/// A type-erased observer that forwards every event to a closure.
///
/// Thread-safety: `Sendable` so that a producer can hand its observer to a callback on another thread
/// (a network completion handler, a dispatch queue), as RxSwift code does everywhere. Calling it from
/// two threads at once is still a contract violation; the observers the library hands out detect that
/// in debug builds (see "Contracts").
public struct AnyObserver<Element>: ObserverType, @unchecked Sendable {
    /// The closure type that handles events.
    public typealias EventHandler = (Event<Element>) -> Void

    /// The handler, unless the observer is one of the library's sinks.
    @usableFromInline let observer: EventHandler?
    /// The library's sink behind the observer (`Observable.create`, custom observables): events go to
    /// it directly, split in the caller's module without building a closure or looking up metadata.
    @usableFromInline let sink: Sink<Element>?
    /// Set in the observer `create` hands its closure: every copy holds it, and when the last copy
    /// goes the sink hears that its producer let go of it (``ProducerLifetime``).
    let lifetime: ProducerLifetime?

    /// Creates an observer that calls `eventHandler` for every event.
    public init(eventHandler: @escaping EventHandler, isolation: (any Actor)? = #isolation) {
        let eventHandler =
            isolation == nil ? eventHandler : rxIsolationChecked(eventHandler, isolation, "AnyObserver(eventHandler:)")
        self.observer = eventHandler
        self.sink = nil
        self.lifetime = nil
    }

    /// Creates an observer that forwards every event to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        if let wrapped = observer as? AnyObserver<Element> {
            self = wrapped
        } else if let wrapped = observer as? SinkObserver<Element> {
            self.init(sink: wrapped.sink)
        } else {
            self.init(eventHandler: observer.on)
        }
    }

    init(sink: Sink<Element>) {
        self.observer = nil
        self.sink = sink
        self.lifetime = nil
    }

    /// The observer handed to a producer (`create`'s closure): once every copy of it is gone, `sink`
    /// is told that its source let go (``AnySink/sourceReleased()``).
    init(producerOf sink: Sink<Element>) {
        self.observer = nil
        self.sink = sink
        self.lifetime = ProducerLifetime(sink)
    }

    /// Forwards `event` to the wrapped handler.
    ///
    /// Spelled so that neither field is copied (checked with `swiftc -O`, specialized for `Int`):
    /// `if let sink` retained and released the sink around every event, and calling
    /// `observer.unsafelyUnwrapped` allocated a reabstraction thunk for every event.
    @inlinable
    public func on(_ event: Event<Element>) {
        if sink != nil {
            sink.unsafelyUnwrapped.on(event)
        } else {
            observer?(event)
        }
    }

    /// Returns `self`.
    public func asObserver() -> AnyObserver<Element> {
        self
    }
}

extension ObserverType {
    /// Erases the type of this observer.
    public func asObserver() -> AnyObserver<Element> {
        AnyObserver(self)
    }

    /// Returns an observer that transforms each element with `transform` before forwarding it here.
    /// A throwing `transform` forwards the error instead.
    public func mapObserver<Result>(
        _ transform: @escaping (Result) throws -> Element, isolation: (any Actor)? = #isolation
    ) -> AnyObserver<Result> {
        let transform = isolation == nil ? transform : rxIsolationChecked(transform, isolation, "mapObserver")
        return AnyObserver { event in
            self.on(event.map(transform))
        }
    }
}

/// Tells a sink, when the last copy of the observer a producer was handed goes after a source it was
/// subscribed to let go of it (a dropped subject), that its producer can send nothing more:
/// `create { subject.subscribe($0) }` is then released with its cleanup, as a subscription on the
/// subject itself is (Contracts, "Lifetime").
///
/// An observer that only the closure dropped (`create { _ in Disposables.create { … } }`, or one
/// handed to a source such as `never()` that keeps nothing) keeps RxSwift's lifetime, until disposed:
/// that is RxSwift's never-ending source whose disposal tests watch, tick for tick.
///
/// Not generic, so that making one per subscription looks no metadata up.
///
/// Thread-safety: `sourceLetGo` is atomic (forwarders on several threads may set it); the deinit runs
/// after every copy's last use.
final class ProducerLifetime: @unchecked Sendable {
    private let sink: AnySink
    private let sourceLetGo = Atomic<Bool>(false)

    init(_ sink: AnySink) {
        self.sink = sink
    }

    /// A source the observer was subscribed to let go of it.
    func noteSourceLetGo() {
        sourceLetGo.store(true, ordering: .relaxed)
    }

    deinit {
        if sourceLetGo.load(ordering: .relaxed) { sink.sourceReleased() }
    }
}
