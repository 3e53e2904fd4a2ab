import Synchronization

/// One subscriber of ``ShareLatestObservable``. Not an operator sink: it has no upstream of its own,
/// so it skips the slot, which would be most of its size (`Server/README.md`, "Where a client's memory
/// goes"). Its events and end follow ``ForwardingSink``'s.
///
/// Thread-safety: `flags` is atomic; `connection` is written once before the sink is published, and
/// `slot` is guarded by the producer's lock.
@usableFromInline
final class ShareLatestSink<Source, Element>: Sink<Element>, @unchecked Sendable {
    private let downstream: Sink<Element>
    private let flags = Atomic<Int>(0)
    @exclusivity(unchecked) private var connection: ShareLatestConnection<Source, Element>?
    /// Where the connection keeps the sink: 0 or more, its index among ``ShareObservers/others``;
    /// `shareFirstCatchUpSlot - i`, index `i` in the catch-up roster; -1, neither. Producer's lock.
    @exclusivity(unchecked) private var slot = -1

    private static var stoppedBit: Int { 1 }
    private static var disposedBit: Int { 2 }
    private static var sourceGoneBit: Int { 4 }

    @usableFromInline
    init(downstream: Sink<Element>) {
        self.downstream = downstream
    }

    /// Methods, as `join` is (DESIGN.md, "The hot path"); under the producer's lock.
    func setSlot(_ index: Int) {
        slot = index
    }

    func takeSlot() -> Int {
        defer { slot = -1 }
        return slot
    }

    func currentSlot() -> Int {
        slot
    }

    /// Where elements go once the sink has joined the observers in the first place (read only then).
    var target: AnySink { downstream }

    /// A method, so that the field is set where the sink's metadata is at hand.
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

    override func dispose() {
        guard set(Self.disposedBit | Self.stoppedBit, unless: Self.disposedBit) else { return }
        connection?.removeSubscriber(self)
    }

    /// The source let go for good: the chain below hears it once, unless the sink has stopped.
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
/// nearly always has one, which then costs no array. Elements go to the first one's downstream
/// directly; the others (an ``ObserverList`` whose slots are emptied when they leave) and terminal
/// events go through the share sinks.
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

    /// Empties the first place, which stays empty until no observer is left.
    mutating func removeFirst() {
        first = nil
        firstTarget = nil
    }

    /// Empties slot `slot` of the others; `renumber` is told each observer's new slot after compaction.
    mutating func removeOther(at slot: Int, renumber: (AnySink, Int) -> Void) {
        others.removeEntry(at: slot, renumber: renumber)
    }

    @inlinable var hasOthers: Bool { !others.isEmpty }

    var isEmpty: Bool { first == nil && !hasOthers }

    /// Calls `body` with each observer and, for the first, its downstream (the others' is their own).
    func forEach(_ body: (AnySink, AnySink) -> Void) {
        if let first, let firstTarget { body(first, firstTarget) }
        for case let sink? in others.entries { body(sink, sink) }
    }
}

/// The slot of the first entry of a connection's catch-up roster; a global (DESIGN.md, "The hot path").
var shareFirstCatchUpSlot: Int { -2 }
