import Synchronization

/// The non-generic face of a subject's core, so that a subscription can unsubscribe without being
/// generic itself.
@usableFromInline
class SubjectCoreBase {
    func unsubscribe(_ observer: SubjectObserver) {
        rxAbstractMethod()
    }
}

/// One subscription to a subject: the observer's entry in the subject's array, and the disposable
/// handed to the subscriber. Not generic, so that the array is of a concrete type.
///
/// It holds the core strongly (a weak reference would cost a side-table allocation per subject):
/// the cycle core → entry → core is broken by the subject's deinitializer, which releases every
/// entry's sink (``SubjectCore/detach()``) and tells it so, so a dropped subject frees its observers,
/// and the operators' sinks between it and them, even when nobody disposed them. Disposing the entry releases the sink (and so the subscriber's closures),
/// as RxSwift does, even while the disposable itself is kept.
///
/// Thread-safety: `disposed` is atomic and `core` immutable. The sink's address is an atomic word, so
/// releasing it happens once whoever does it; the core guarantees that nobody is calling the sink
/// when it is released (see ``SubjectCore``). `place` and `catchUpIndex` are guarded by the core's
/// lock.
final class SubjectObserver: Disposable, @unchecked Sendable {
    /// The sink's address, retained by hand, so that delivering reads it without a retain and release
    /// per element; 0 once released.
    private let sinkAddress: Atomic<UInt>
    private let core: SubjectCoreBase
    private let disposed = Atomic<Bool>(false)
    /// Where the core keeps this observer: what unsubscribing reads instead of searching the core's
    /// lists, so that leaving costs the same whatever the number of observers (see the Scaling
    /// benchmarks).
    @exclusivity(unchecked) var place = SubjectObserverPlace.unlisted
    /// The observer's index in the core's catch-up list while `place` is `.catchingUp`.
    @exclusivity(unchecked) var catchUpIndex = 0
    /// Set while catching up when the subject let go of its observers (``SubjectCore/detach()``):
    /// the observer leaves for good once caught up. Guarded by the core's lock.
    @exclusivity(unchecked) var releasedWhileCatchingUp = false

    init(sink: AnySink, core: SubjectCoreBase) {
        sinkAddress = Atomic(UInt(bitPattern: Unmanaged.passRetained(sink).toOpaque()))
        self.core = core
    }

    deinit {
        releaseSink()
    }

    @inline(__always)
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Calls `body` with the sink, typed again (it was created as a `Sink<Element>` by the core of the
    /// same `Element`), without retaining it: the entry keeps it alive, and the caller holds the entry.
    @inline(__always)
    func withSink<Element>(of _: Element.Type, _ body: (Sink<Element>) -> Void) {
        guard let address = UnsafeRawPointer(bitPattern: sinkAddress.load(ordering: .acquiring)) else { return }
        Unmanaged<AnySink>.fromOpaque(address)._withUnsafeGuaranteedRef {
            body(unsafeDowncast($0, to: Sink<Element>.self))
        }
    }

    /// Drops the sink, once, telling it first that its source let go of it for good
    /// (``AnySink/sourceGone()``), so that the chain below it is released too. The caller makes
    /// sure nobody is calling it.
    func releaseSinkForGood() {
        let address = sinkAddress.exchange(0, ordering: .acquiringAndReleasing)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return }
        // Owned here until the chain has heard of it: telling it may release the last other
        // reference to it.
        let sink = Unmanaged<AnySink>.fromOpaque(pointer).takeRetainedValue()
        sink.sourceGone()
    }

    /// Drops the sink, once. The caller makes sure nobody is calling it.
    func releaseSink() {
        let address = sinkAddress.exchange(0, ordering: .acquiringAndReleasing)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return }
        Unmanaged<AnySink>.fromOpaque(pointer).release()
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.unsubscribe(self)
    }
}

/// Where a subject's core keeps an observer (``SubjectObserver/place``).
enum SubjectObserverPlace: UInt8 {
    /// In none of the core's lists: not yet registered, or left.
    case unlisted
    /// In the observer array, which senders snapshot, or in the array the subject let go of as a whole
    /// when it stopped or was disposed (the core tells the two apart).
    case live
    /// In the catch-up list, receiving its replay on the subscribing thread.
    case catchingUp
}
