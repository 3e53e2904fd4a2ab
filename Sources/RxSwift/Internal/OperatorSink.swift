import Synchronization

/// The base of an operator's per-subscription state: it receives `Input`, sends `Output`, and is the
/// `Disposable` downstream holds (DESIGN.md, "The hot path"). Whichever of `setUpstream` and the
/// first release request (`dispose` or ``disposeUpstream()``) comes second disposes upstream, exactly
/// once.
///
/// Thread-safety: `flags` is atomic; the upstream disposable is written once before `upstreamSet` is
/// published and taken only by the one thread that observes both `upstreamSet` and a release request.
@usableFromInline
class OperatorSink<Input, Output>: Sink<Input>, Cancelable, @unchecked Sendable {
    @usableFromInline final let downstream: Sink<Output>
    @usableFromInline let flags = Atomic<Int>(0)
    /// Holds the upstream disposable exactly while `upstreamSet` is set and no release was requested.
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

    @usableFromInline @inline(__always)
    final var isDisposed: Bool {
        flags.load(ordering: .relaxed) & Self.disposedBit != 0
    }

    /// Whether events may still be forwarded: false after a terminal event or disposal.
    @inlinable @inline(__always)
    final var isForwarding: Bool {
        flags.load(ordering: .relaxed) & Self.stoppedBit == 0
    }

    /// Stores the upstream disposable, disposing it at once if the sink was disposed. Called once.
    final func setUpstream(_ disposable: consuming Disposable) {
        assert(flags.load(ordering: .relaxed) & Self.upstreamSetBit == 0, "setUpstream called twice")
        upstream.store(disposable)
        let old = flags.bitwiseOr(Self.upstreamSetBit, ordering: .acquiringAndReleasing).oldValue
        if old & Self.releaseRequestedBit != 0 {
            upstream.take().dispose()
        }
    }

    /// Subscribes this sink to `source` and returns it as downstream's disposable.
    @inline(__always)
    final func subscribed(to source: Observable<Input>) -> Disposable {
        setUpstream(source.subscribe(sink: self))
        return asDisposable
    }

    /// Disposes upstream (now, or when it is set) while the sink goes on: for `merge` and
    /// `switchLatest`, whose source completed while inner subscriptions still deliver.
    final func disposeUpstream() {
        let old = flags.bitwiseOr(Self.releaseRequestedBit, ordering: .acquiringAndReleasing).oldValue
        if old & (Self.upstreamSetBit | Self.releaseRequestedBit) == Self.upstreamSetBit {
            upstream.take().dispose()
        }
    }

    /// Whether downstream hears only what the one source sends, synchronously (map, scan, …): then the
    /// source letting go lets go of the chain below; other sinks only drop their upstream.
    var releasesWithItsSource: Bool { false }

    /// See ``AnySink/sourceGone()``: disposes upstream and tells downstream if nothing else drives this
    /// sink. Also called by a source that keeps this sink but will never send to it again.
    override final func sourceGone() {
        endAsSourceGone()
    }

    @inline(never)
    private func endAsSourceGone() {
        // Told once: a second notice would count twice in an operator that counts its sources. A stopped
        // sink has ended the chain below. The bits are set only when the notice goes on, so that
        // ``sourceGoneGoesOn`` can tell a disposal that the source's release disposes the upstream.
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

    /// Tells downstream that the source let go, if nothing else drives this sink; `observe(on:)`
    /// overrides it to tell once its pending work has run.
    func forwardSourceGone() {
        if releasesWithItsSource { letGoOfDownstream() }
    }

    /// Nothing more can arrive: downstream hears its sources are gone, then the sink disposes its own
    /// resources. The one way a sink lets go of the chain below.
    final func letGoOfDownstream() {
        downstream.sourceGone()
        dispose()
    }

    /// Marks the sink stopped without forwarding (its terminal event goes elsewhere); `true` once.
    final func stop() -> Bool {
        flags.bitwiseOr(Self.stoppedBit, ordering: .acquiringAndReleasing).oldValue & Self.stoppedBit == 0
    }

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
        // Still holding the upstream disposable: set, and never released.
        if flags.load(ordering: .relaxed) & (Self.upstreamSetBit | Self.releaseRequestedBit) == Self.upstreamSetBit {
            _ = upstream.take()
        }
    }

    /// Hook for subclasses that own more than the upstream subscription (timers, inner subscriptions).
    func disposeResources() {}

    /// Whether the source let go before this disposal, so its release disposes upstream instead.
    @inline(__always)
    final var sourceGoneGoesOn: Bool {
        flags.load(ordering: .acquiring) & Self.sourceGoneBit != 0
    }
}

/// An operator sink whose downstream hears only what its one source sends, synchronously: released
/// with its source (``OperatorSink/releasesWithItsSource``).
@usableFromInline
class OneSourceSink<Input, Output>: OperatorSink<Input, Output>, @unchecked Sendable {
    @usableFromInline
    override init(downstream: Sink<Output>) {
        super.init(downstream: downstream)
    }

    override final var releasesWithItsSource: Bool { true }
}

/// An operator sink that passes every event through (`subscribe(on:)`, `using`); subclassed where
/// only disposal differs (a share's subscriber leaving its connection).
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

    override var releasesWithItsSource: Bool { true }
}
