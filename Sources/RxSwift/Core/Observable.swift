/// The base class of every observable sequence in the library.
///
/// Thread-safety: an `Observable` is an immutable description of how to produce events; subscribing
/// creates the mutable state (sinks), so an `Observable` may be shared across threads and actors.
/// Closures given to operators run on whatever thread delivers the events, as in RxSwift.
public class Observable<Element>: ObservableType, @unchecked Sendable {
    /// Always inlined (the `MapFilterCreating` benchmark).
    @usableFromInline @inline(__always)
    init() {
        runDepth = 0
    }

    /// Subscribes `observer` to the sequence.
    ///
    /// As in RxSwift, a subscription made while no current-thread trampoline runs on this thread runs
    /// inside a new one (``CurrentThreadScheduler``): work that the subscription schedules there —
    /// the elements of `of`/`from`, a source subscribed inside `create`'s closure — runs after the
    /// whole chain is subscribed, before `subscribe` returns.
    ///
    /// Disposing the returned disposable releases `observer` (and what it captures) even while the
    /// disposable itself is kept, as in RxSwift: an object that stores its subscription and observes
    /// with a closure capturing itself is freed once it disposes.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        // The library's own observers (the observer of `create`, operators' inner observers) are
        // released by their owners; for any other observer the disposable handed out must not be the
        // chain's sink, which keeps its observer for good, but a handle that lets go of the chain.
        if let wrapped = observer as? SinkObserver<Element> {
            return CurrentThreadScheduler.trampolined { self.subscribe(sink: wrapped.sink) }
        }
        let sink = SinkObserver.sink(for: observer)
        let subscription = SubscriptionHandle()
        return CurrentThreadScheduler.trampolined {
            subscription.setUpstream(self.subscribe(sink: sink))
            return subscription
        }
    }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> {
        self
    }

    /// For a source that delivers everything synchronously and owns nothing to dispose (`just`, `empty`,
    /// `error`): passes its elements to `next` and returns its terminal event, without a subscription, so
    /// that `flatMap`-like operators skip the inner subscription. Other sources return `nil`.
    @usableFromInline
    func deliverConstant(_ next: (Element) -> Void) -> Termination? {
        nil
    }

    /// Whether ``deliverConstant(_:)`` delivers this source without a subscription.
    @usableFromInline
    var isConstantSource: Bool { false }

    // The hooks of stateless fusion (`StatelessChains.swift`), declared here because only a class's own
    // body can declare what subclasses override.

    /// How many `map`/`filter` operators are stacked here above a source of another kind (else 0); past
    /// `runThreshold` the chain is a run. Stored, set once by `map` and `filter` (`MapFilterCreating`).
    @usableFromInline @exclusivity(unchecked) final var runDepth: Int

    /// This observable's stage of a run and the source below it, if it is a `map` or a `filter`.
    func runStage() -> (stage: RunStage, below: any RunLink)? { nil }

    /// Subscribes `filter`, whose source this is: its own sink, or one pair sink from a `map` or `filter`.
    @usableFromInline
    func subscribe(filterAbove filter: FilterObservable<Element>, downstream: Sink<Element>) -> Disposable {
        filter.subscribeOwnSink(downstream)
    }

    /// Subscribes `map`, whose source this is: its own sink, or one pair sink from a `filter`.
    @usableFromInline
    func subscribe<Result>(mapAbove map: MapObservable<Element, Result>, downstream: Sink<Result>) -> Disposable {
        map.subscribeOwnSink(downstream)
    }

    /// The internal subscription entry point, which producers override.
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
