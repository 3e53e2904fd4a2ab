import Synchronization

/// The base of an operator's per-subscription state: it receives `Input` from upstream, sends
/// `Output` downstream, and is the `Disposable` that downstream holds.
///
/// One object per operator per subscription: the sink is its own disposer. Disposal races with a
/// terminal event and with upstream still being subscribed are resolved with one atomic word:
/// whichever of `setUpstream` and the first release request (`dispose` or ``disposeUpstream()``)
/// comes second disposes upstream, exactly once.
///
/// Thread-safety: `flags` is atomic; the upstream disposable is written once before `upstreamSet` is
/// published and taken only by the single thread that observes both `upstreamSet` and a release
/// request (hence no dynamic exclusivity checks on it: they cost more than the rest of a
/// subscription's bookkeeping).
@usableFromInline
class OperatorSink<Input, Output>: Sink<Input>, Cancelable, @unchecked Sendable {
    @usableFromInline final let downstream: Sink<Output>
    @usableFromInline let flags = Atomic<Int>(0)
    /// Holds the upstream disposable exactly while `upstreamSet` is set and no release was
    /// requested (the flags say when, so the slot needs no optional of its own).
    @exclusivity(unchecked) private var upstream = UpstreamSlot()

    @inlinable @inline(__always) static var disposedBit: Int { 1 }
    @inlinable @inline(__always) static var upstreamSetBit: Int { 2 }
    @inlinable @inline(__always) static var stoppedBit: Int { 4 }
    @inlinable @inline(__always) static var releaseRequestedBit: Int { 8 }
    /// Set by the first ``sourceGone()``: downstream hears of it once.
    @inlinable @inline(__always) static var sourceGoneBit: Int { 16 }

    @usableFromInline
    init(downstream: Sink<Output>) {
        self.downstream = downstream
    }

    /// Whether `dispose()` has been called.
    @usableFromInline @inline(__always)
    final var isDisposed: Bool {
        flags.load(ordering: .relaxed) & Self.disposedBit != 0
    }

    /// Whether events may still be forwarded: false after a terminal event or disposal. Inlined: every
    /// operator asks it for every element.
    @inlinable @inline(__always)
    final var isForwarding: Bool {
        flags.load(ordering: .relaxed) & Self.stoppedBit == 0
    }

    /// Stores the disposable of the upstream subscription; disposes it at once if this sink was
    /// already disposed. Called once.
    final func setUpstream(_ disposable: consuming Disposable) {
        assert(flags.load(ordering: .relaxed) & Self.upstreamSetBit == 0, "setUpstream called twice")
        upstream.store(disposable)
        let old = flags.bitwiseOr(Self.upstreamSetBit, ordering: .acquiringAndReleasing).oldValue
        if old & Self.releaseRequestedBit != 0 {
            upstream.take().dispose()
        }
    }

    /// Subscribes this sink to `source` and returns it as the disposable downstream holds: how an
    /// operator with one source starts each subscription.
    @inline(__always)
    final func subscribed(to source: Observable<Input>) -> Disposable {
        setUpstream(source.subscribe(sink: self))
        return asDisposable
    }

    /// Disposes the upstream subscription (now, or when it is set) while the sink goes on: for
    /// operators whose source completed but whose inner subscriptions still deliver (`merge`,
    /// `switchLatest`), so that the source's subscription ends when it completes, as in RxSwift.
    final func disposeUpstream() {
        let old = flags.bitwiseOr(Self.releaseRequestedBit, ordering: .acquiringAndReleasing).oldValue
        if old & (Self.upstreamSetBit | Self.releaseRequestedBit) == Self.upstreamSetBit {
            upstream.take().dispose()
        }
    }

    /// Whether this sink's downstream hears only what its one source sends, synchronously (map,
    /// filter, scan, take, …): then a source that lets go of it (``AnySink/sourceGone()``) lets go
    /// of the whole chain below. False for sinks that deliver from elsewhere too (timers, other
    /// sources, queued work): those only drop their upstream, and live as long as what else drives
    /// them.
    var releasesWithItsSource: Bool { false }

    /// See ``AnySink/sourceGone()``: disposes the upstream subscription (whatever cleanup the user
    /// attached there, `do(onDispose:)`, `using`'s resource, the disposable a `create` closure returned,
    /// runs now, once: the subscription can never receive again, and its handle may never be
    /// disposed), and tells downstream if nothing else drives this sink. Also called by a source that
    /// still holds this sink but will never send to it again (a subject whose only sender has gone).
    override final func sourceGone() {
        endAsSourceGone()
    }

    @inline(never)
    private func endAsSourceGone() {
        // Told once: a second notice (the sink let go of its source meanwhile) would count twice in
        // an operator that counts its sources. A sink that stopped (its terminal event, a disposal)
        // has disposed its upstream or is about to, and the chain below has ended. The bits are set
        // only when this notice goes on, so that ``sourceGoneGoesOn`` can tell a disposal that
        // the source's release will dispose the upstream and report it.
        var old = flags.load(ordering: .relaxed)
        while true {
            guard old & (Self.sourceGoneBit | Self.stoppedBit) == 0 else { return }
            let (exchanged, original) = flags.weakCompareExchange(
                expected: old, desired: old | Self.releaseRequestedBit | Self.sourceGoneBit,
                successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed)
            if exchanged { break }
            old = original
        }
        if old & (Self.upstreamSetBit | Self.releaseRequestedBit) == Self.upstreamSetBit {
            upstream.take().dispose()
        }
        forwardSourceGone()
    }

    /// Tells downstream that the source let go, if nothing else drives this sink; overridden by
    /// sinks that tell it once their own pending work has run (`observe(on:)`).
    func forwardSourceGone() {
        if releasesWithItsSource { letGoOfDownstream() }
    }

    /// Nothing more can arrive: downstream hears that its sources are gone, then this sink is disposed
    /// (its own resources; downstream has usually disposed it already, as its upstream). The one way
    /// a sink lets go of the chain below it.
    final func letGoOfDownstream() {
        downstream.sourceGone()
        dispose()
    }

    /// Marks the sink stopped without forwarding anything; `true` for the first caller only. For
    /// sinks whose terminal event goes somewhere other than `downstream` (inner subscriptions).
    final func stop() -> Bool {
        flags.bitwiseOr(Self.stoppedBit, ordering: .acquiringAndReleasing).oldValue & Self.stoppedBit == 0
    }

    /// Forwards `element` downstream unless the sink has stopped.
    @usableFromInline
    final func forward(_ element: Output) {
        if isForwarding { downstream.next(element) }
    }

    /// Forwards the terminal event once, then disposes upstream.
    @usableFromInline
    final func forwardTermination(_ termination: Termination) {
        let old = flags.bitwiseOr(Self.stoppedBit, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.stoppedBit == 0 else { return }
        downstream.terminate(termination)
        dispose()
    }

    /// Marks the sink stopped and disposes upstream once.
    @usableFromInline
    override func dispose() {
        let old = flags.bitwiseOr(
            Self.disposedBit | Self.stoppedBit | Self.releaseRequestedBit, ordering: .acquiringAndReleasing
        ).oldValue
        guard old & Self.disposedBit == 0 else { return }
        if old & (Self.upstreamSetBit | Self.releaseRequestedBit) == Self.upstreamSetBit {
            upstream.take().dispose()
        }
        disposeResources()
    }

    deinit {
        // Still holding the upstream disposable: set, and never released (the source ended or was
        // abandoned without a disposal reaching this sink).
        if flags.load(ordering: .relaxed) & (Self.upstreamSetBit | Self.releaseRequestedBit) == Self.upstreamSetBit {
            _ = upstream.take()
        }
    }

    /// Hook for subclasses that own more than the upstream subscription (timers, inner subscriptions).
    func disposeResources() {}

    /// For ``disposeResources()``: whether the source let go of this sink before it was disposed, so
    /// that the source's release (``forwardSourceGone()``, on its own thread) disposes the upstream
    /// subscription, perhaps not yet, rather than this disposal.
    @inline(__always)
    final var sourceGoneGoesOn: Bool {
        flags.load(ordering: .acquiring) & Self.sourceGoneBit != 0
    }
}

/// An operator sink whose downstream hears only what its one source sends, synchronously (`scan`,
/// `take`, `skip(while:)`, `do`, `create`'s observer, …): a source that lets go of it lets go of the
/// chain below (see ``OperatorSink/releasesWithItsSource``).
@usableFromInline
class OneSourceSink<Input, Output>: OperatorSink<Input, Output>, @unchecked Sendable {
    @usableFromInline
    override init(downstream: Sink<Output>) {
        super.init(downstream: downstream)
    }

    override final var releasesWithItsSource: Bool { true }
}

/// An operator sink that passes every event through unchanged (for operators whose work is in how
/// they subscribe or dispose, such as `subscribe(on:)` and `using`); subclassed where only disposal
/// differs (a share's subscriber leaving its connection).
@usableFromInline
class ForwardingSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    @usableFromInline
    override init(downstream: Sink<Element>) {
        super.init(downstream: downstream)
    }

    override final func next(_ element: Element) {
        forward(element)
    }

    override final func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }

    /// It forwards what its one source sends (`subscribe(on:)`, `startWith`, `using`, an attempt of
    /// `concat`/`catch(sequence:)`/`retry`, …): released with it.
    override var releasesWithItsSource: Bool { true }
}
