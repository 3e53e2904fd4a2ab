import Synchronization

/// The non-generic face of a subject's core, so that a subscription can unsubscribe without being
/// generic itself.
@usableFromInline
class SubjectCoreBase {
    func unsubscribe(_ observer: SubjectObserver) {
        rxAbstractMethod()
    }
}

/// One subscription to a subject: its entry in the subject's array and the subscriber's disposable;
/// not generic, so the array's type is concrete. It holds the core strongly; the subject's
/// deinitializer breaks the cycle (``SubjectCore/detach()``). Disposing releases the sink, as RxSwift
/// does, even while the disposable is kept.
///
/// Thread-safety: `disposed` is atomic and `core` immutable. The sink's address is an atomic word, so
/// it is released once; the core makes sure nobody is calling the sink then (``SubjectCore``).
/// `place`, `catchUpIndex` and `releasedWhileCatchingUp` are guarded by the core's lock.
final class SubjectObserver: Disposable, @unchecked Sendable {
    /// The sink's address, retained by hand (no retain per element); 0 once released.
    private let sinkAddress: Atomic<UInt>
    private let core: SubjectCoreBase
    private let disposed = Atomic<Bool>(false)
    /// Where the core keeps this observer, so leaving costs O(1) (the Scaling benchmarks).
    @exclusivity(unchecked) var place = SubjectObserverPlace.unlisted
    /// The observer's index in the core's catch-up list while `place` is `.catchingUp`.
    @exclusivity(unchecked) var catchUpIndex = 0
    /// Set when the subject let go of its observers while this one caught up: it leaves once caught up.
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

    /// Calls `body` with the sink, typed again, without retaining it: the caller holds the entry.
    @inline(__always)
    func withSink<Element>(of _: Element.Type, _ body: (Sink<Element>) -> Void) {
        guard let address = UnsafeRawPointer(bitPattern: sinkAddress.load(ordering: .acquiring)) else { return }
        Unmanaged<AnySink>.fromOpaque(address)._withUnsafeGuaranteedRef {
            body(unsafeDowncast($0, to: Sink<Element>.self))
        }
    }

    /// Drops the sink once, telling it first that its source let go for good (``AnySink/sourceGone()``).
    /// The caller makes sure nobody is calling it.
    func releaseSinkForGood() {
        let address = sinkAddress.exchange(0, ordering: .acquiringAndReleasing)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return }
        // Owned here until the chain has heard: telling it may release the last other reference.
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
    /// In the observer array, or in the array the subject let go of when it stopped or was disposed.
    case live
    /// In the catch-up list, receiving its replay on the subscribing thread.
    case catchingUp
}
