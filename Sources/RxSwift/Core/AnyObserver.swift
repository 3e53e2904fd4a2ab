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

    /// Creates an observer that calls `eventHandler` for every event.
    public init(
        eventHandler: @escaping EventHandler, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) {
        let eventHandler =
            isolation == nil
            ? eventHandler
            : rxIsolationChecked(
                eventHandler, isolation, "AnyObserver(eventHandler:)", callerFileID, callerLine)
        self.observer = eventHandler
        self.sink = nil
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
        _ transform: @escaping (Result) throws -> Element, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> AnyObserver<Result> {
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "mapObserver", callerFileID, callerLine)
        return AnyObserver { event in
            self.on(event.map(transform))
        }
    }
}
