import Synchronization

extension ObservableType {
    /// Subscribes a closure that receives every event.
    ///
    /// Goes through ``ObservableConvertibleType/asObservable()``, so a hand-written source is held to the
    /// grammar as well.
    public func subscribe(
        _ on: @escaping (Event<Element>) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let on =
            isolation == nil ? on : rxIsolationChecked(on, isolation, "subscribe", callerFileID, callerLine)
        return asObservable().subscribe(AnyObserver(eventHandler: on))
    }

    /// Subscribes closures for elements, the error, completion and disposal.
    ///
    /// `onDisposed` runs once: after a terminal event, when the returned disposable is disposed, or
    /// when the subscription's sources were released with it undisposed (a dropped subject; see
    /// "Contracts", "Lifetime").
    /// An error with no `onError` goes to ``Hooks/defaultErrorHandler``. After termination or disposal
    /// the closures are released, so a capture of `self` does not outlive the subscription.
    ///
    /// Inlinable, so that the sink's generic class is instantiated in the caller's module, once,
    /// instead of being looked up at run time on every subscription (the Performance article).
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "subscribe(onNext:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError
            : rxIsolationChecked(onError, isolation, "subscribe(onError:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(
                onCompleted, isolation, "subscribe(onCompleted:)", callerFileID, callerLine)
        let subscription = ClosureSubscription(onDisposed: onDisposed)
        // Captured now, as in RxSwift: at error time the stack no longer shows who subscribed.
        let callStack = onError == nil && Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        let sink = ClosureSink(
            onNext: onNext, onError: onError, onCompleted: onCompleted, callStack: callStack,
            subscription: subscription)
        let observable = asObservable()
        return CurrentThreadScheduler.trampolined {
            subscription.setUpstream(observable.subscribe(sink: sink))
            return subscription
        }
    }

    /// Subscribes closures that receive `object` (held weakly) with each event; events that arrive
    /// after `object` was deallocated are dropped.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Disposable {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "subscribe(onNext:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError
            : rxIsolationChecked(onError, isolation, "subscribe(onError:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(
                onCompleted, isolation, "subscribe(onCompleted:)", callerFileID, callerLine)
        return subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext?(object, element)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}

/// The disposable `subscribe` hands out: owns the upstream subscription but not the sink, so disposing
/// releases the observer even while the handle is kept.
///
/// Thread-safety: as ``OperatorSink``, one atomic word decides which of `setUpstream` and `dispose`
/// takes the upstream; ``disposed()`` runs only on the thread that wins.
@usableFromInline
class SubscriptionHandle: DisposeBase, Cancelable, @unchecked Sendable {
    private let flags = Atomic<Int>(0)
    /// Holds the upstream disposable while bit 2 is set and bit 1 is not.
    @exclusivity(unchecked) private var upstream = UpstreamSlot()

    @usableFromInline
    override init() {}

    @usableFromInline
    final var isDisposed: Bool { flags.load(ordering: .relaxed) & 1 != 0 }

    @usableFromInline
    final func setUpstream(_ disposable: consuming Disposable) {
        assert(flags.load(ordering: .relaxed) & 2 == 0, "setUpstream called twice")
        upstream.store(disposable)
        let old = flags.bitwiseOr(2, ordering: .acquiringAndReleasing).oldValue
        if old & 1 != 0 {
            upstream.take().dispose()
        }
    }

    @usableFromInline
    final func dispose() {
        let old = flags.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue
        guard old & 1 == 0 else { return }
        if old & 2 != 0 {
            upstream.take().dispose()
        }
        disposed()
    }

    /// Runs once, after the first disposal has disposed upstream.
    func disposed() {}

    deinit {
        // Set and never disposed.
        if flags.load(ordering: .relaxed) & 3 == 2 { _ = upstream.take() }
    }
}

/// The disposable of `subscribe(onNext:…)`: a ``SubscriptionHandle`` that runs `onDisposed` once.
@usableFromInline
final class ClosureSubscription: SubscriptionHandle, @unchecked Sendable {
    @exclusivity(unchecked) private var onDisposed: (() -> Void)?

    @usableFromInline
    init(onDisposed: (() -> Void)?) {
        self.onDisposed = onDisposed
    }

    override func disposed() {
        onDisposed.take()?()
    }
}

/// The sink behind `subscribe(onNext:…)`. Events arrive serialized; `stopped` is atomic so that a
/// disposal from another thread stops delivery.
@usableFromInline
final class ClosureSink<Element>: Sink<Element>, @unchecked Sendable {
    private let onNext: ((Element) -> Void)?
    private let onError: ((Swift.Error) -> Void)?
    private let onCompleted: (() -> Void)?
    private let callStack: [String]
    private let subscription: ClosureSubscription

    @usableFromInline
    init(
        onNext: ((Element) -> Void)?, onError: ((Swift.Error) -> Void)?, onCompleted: (() -> Void)?,
        callStack: [String], subscription: ClosureSubscription
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.callStack = callStack
        self.subscription = subscription
    }

    override func next(_ element: Element) {
        if !subscription.isDisposed { onNext?(element) }
    }

    /// The source let go: the subscription ends as a disposal does (`onDisposed` runs now, once),
    /// breaking the cycle handle → sinks → handle.
    override func sourceGone() {
        subscription.dispose()
    }

    override func terminate(_ termination: Termination) {
        guard !subscription.isDisposed else { return }
        switch termination {
        case .completed:
            onCompleted?()
        case .error(let error):
            if let onError {
                onError(error)
            } else {
                Hooks.defaultErrorHandler(callStack, error)
            }
        }
        subscription.dispose()
    }
}
