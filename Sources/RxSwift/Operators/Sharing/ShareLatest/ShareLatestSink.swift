import Synchronization

/// One subscriber of ``ShareLatestObservable``.
///
/// Not an operator sink: it has no upstream subscription of its own (the connection has the one
/// subscription to the source), so it holds no upstream slot, which would be most of its size: a
/// share with many subscribers (a server's clients, `Server/README.md`, "Where a client's memory
/// goes") pays for it per subscriber. Its events and its end follow ``ForwardingSink``'s: elements
/// pass while it has not stopped, the terminal event passes once, and a source that lets go of it
/// lets go of the chain below.
///
/// Thread-safety: `flags` is atomic; `connection` is written once before the sink is published, and
/// `slot` is guarded by the producer's lock.
@usableFromInline
final class ShareLatestSink<Source, Element>: Sink<Element>, @unchecked Sendable {
    private let downstream: Sink<Element>
    private let flags = Atomic<Int>(0)
    /// Set once, in the critical section that publishes the sink.
    @exclusivity(unchecked) private var connection: ShareLatestConnection<Source, Element>?
    /// Where the connection keeps the sink, guarded by the producer's lock: its index among the
    /// other observers (``ShareObservers/others``) when it is 0 or more; its index `i` in the
    /// catch-up list as `shareFirstCatchUpSlot - i`; -1 when it is in neither (first, or gone). What
    /// leaving reads instead of searching the lists.
    @exclusivity(unchecked) private var slot = -1

    private static var stoppedBit: Int { 1 }
    private static var disposedBit: Int { 2 }
    private static var sourceGoneBit: Int { 4 }

    @usableFromInline
    init(downstream: Sink<Element>) {
        self.downstream = downstream
    }

    /// Methods, as `join` is: the producer and the connection would look the sink's metadata up to
    /// find the field. Under the producer's lock.
    func setSlot(_ index: Int) {
        slot = index
    }

    /// The slot, which is cleared. Under the producer's lock.
    func takeSlot() -> Int {
        defer { slot = -1 }
        return slot
    }

    /// The slot, left as it is. Under the producer's lock.
    func currentSlot() -> Int {
        slot
    }

    /// Where elements go once the sink has joined the observers in the first place (read only then).
    var target: AnySink { downstream }

    /// A method, not a property set by the producer: there the sink's field offset would cost a
    /// generic metadata lookup per subscription; here the sink's own metadata is at hand.
    func join(_ joined: ShareLatestConnection<Source, Element>) {
        connection = joined
    }

    /// Receives the replay and what arrived meanwhile, then joins the observers.
    func catchUp() {
        connection.unsafelyUnwrapped.catchUp(self)
    }

    /// Sets `bits`; whether none of `unless` was set before.
    private func set(_ bits: Int, unless: Int) -> Bool {
        flags.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue & unless == 0
    }

    override func next(_ element: Element) {
        if flags.load(ordering: .relaxed) & Self.stoppedBit == 0 { downstream.next(element) }
    }

    override func terminate(_ termination: Termination) {
        guard set(Self.stoppedBit, unless: Self.stoppedBit) else { return }
        downstream.terminate(termination)
        dispose()
    }

    /// Leaves the connection, once.
    override func dispose() {
        guard set(Self.disposedBit | Self.stoppedBit, unless: Self.disposedBit) else { return }
        connection?.removeSubscriber(self)
    }

    /// The connection's source let go of it for good: the chain below hears it once, unless the sink
    /// has stopped (its end has reached the chain already).
    override func sourceGone() {
        guard set(Self.sourceGoneBit, unless: Self.sourceGoneBit | Self.stoppedBit) else { return }
        downstream.sourceGone()
        dispose()
    }
}

/// The downstream of sinks that have none (a share's connection); never called.
final class UncalledSink: Sink<Never>, @unchecked Sendable {
    static let instance = UncalledSink()

    private override init() {
        super.init()
        #if DEBUG
            // One instance for the process, never released: not a resource the leak checks count.
            Resources.decrementTotal()
        #endif
    }

    override func next(_ element: Never) {}

    override func terminate(_ termination: Termination) {}
}

/// The observers of a share connection, in subscription order, the first kept apart: a Driver stage
/// nearly always has exactly one, which then costs no array (an allocation per connection). Elements
/// go to the first one's downstream (`firstTarget`) directly; the others, and terminal events, go
/// through the share sinks.
///
/// The others are an ``ObserverList`` whose slots are emptied when their sinks leave (the sink is
/// the subscriber's, and must be let go of then); each share sink keeps its index.
@usableFromInline
struct ShareObservers {
    @usableFromInline var first: AnySink?
    @usableFromInline var firstTarget: AnySink?
    @usableFromInline var others = ObserverList<AnySink>()

    @usableFromInline init() {}

    /// Adds an observer; returns its slot among the others, or -1 if it took the first place.
    @discardableResult
    mutating func append(_ sink: AnySink, target: AnySink) -> Int {
        if isEmpty {
            first = sink
            firstTarget = target
            // Only holes can be left in the others.
            if !others.entries.isEmpty { _ = others.removeAll() }
            return -1
        }
        return others.append(sink)
    }

    /// Empties the first place. It stays empty until no observer is left (its downstream is not at
    /// hand for the others).
    mutating func removeFirst() {
        first = nil
        firstTarget = nil
    }

    /// Empties the slot `slot` of the others; `renumber` is told the new slot of each observer that
    /// a compaction moves.
    mutating func removeOther(at slot: Int, renumber: (AnySink, Int) -> Void) {
        others.removeEntry(at: slot, renumber: renumber)
    }

    /// Whether any of the others is there. Inlinable: the relay asks it per element, and a call
    /// would take the whole struct (three retains and releases).
    @inlinable var hasOthers: Bool { !others.isEmpty }

    var isEmpty: Bool { first == nil && !hasOthers }

    /// Calls `body` with each observer and, for the first, its downstream (the others' is their own).
    func forEach(_ body: (AnySink, AnySink) -> Void) {
        if let first, let firstTarget { body(first, firstTarget) }
        for case let sink? in others.entries { body(sink, sink) }
    }
}

/// The slot of a share sink that is the first entry of its connection's catch-up roster. A global,
/// not a static member of the generic sink: naming the sink's type in the connection's unspecialized
/// code would look its metadata up (the `share(replay: 1)` scaling benchmarks).
var shareFirstCatchUpSlot: Int { -2 }
