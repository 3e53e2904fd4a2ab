import Synchronization

/// The producer of `share(replay: 0 or 1, scope: .whileConnected)`, the sharing RxCocoa adds after
/// every `Driver` (replay 1) and `Signal` (replay 0) operator, so a Driver chain holds one per stage.
///
/// Built for that case rather than on a subject: a connection is one object holding its observers
/// and the latest element, guarded by the producer's lock (one critical section per element), and
/// subscribing makes two objects (a connection for the first subscriber, a sink per subscriber).
/// Measured against the subject-based version on RxSwift's Driver scenarios: see Benchmarks/README.md.
///
/// Semantics are those of ``ShareWhileConnectedObservable`` (and RxSwift's
/// `ShareReplay1WhileConnected`): the first subscriber connects, the last one leaving disconnects,
/// a terminated connection is dropped before its observers hear of it, and a new subscriber
/// receives the latest element first. That replay is made without calling out under the lock: the
/// subscriber is registered as catching up, receives the element on its own thread, and then every
/// element that arrived meanwhile, before it joins the observers — so it never misses or reorders an
/// element delivered concurrently on another thread.
///
/// The classes are generic, and their methods run unspecialized; whatever they allocate is made by
/// closures written in the caller's (specialized) code, so no generic metadata is looked up per
/// subscription (about 330 instructions each; see "Performance").
@usableFromInline
final class ShareLatestObservable<Source, Element>: Observable<Element>, @unchecked Sendable {
    let lock = Mutex<Void>(())
    /// The latest connection, live or ended; guarded by `lock`. The connections do not refer back
    /// to the share (nor so to the source): a subject the share was made on would otherwise be kept
    /// alive by its own subscription (subject → its observer, the connection → the share → the
    /// subject), and never released with a subscription nobody disposed. So a connection has a
    /// lock of its own, taken inside this one, and an ended connection stays here until replaced.
    @exclusivity(unchecked) var connection: ShareLatestConnection<Source, Element>?
    let source: Observable<Source>
    @usableFromInline let replays: Bool
    private let makeConnection: (ShareLatestObservable<Source, Element>) -> ShareLatestConnection<Source, Element>
    private let makeSink: (Sink<Element>) -> ShareLatestSink<Source, Element>
    /// Relays an element through a connection, specialized for the element type where the share
    /// was made: the per-element path moves elements without value witnesses and inlines the lock.
    let relay: (ShareLatestConnection<Source, Element>, Source) -> Void

    @usableFromInline
    init(
        source: Observable<Source>, replays: Bool,
        relay: @escaping (ShareLatestConnection<Source, Element>, Source) -> Void,
        makeConnection: @escaping (ShareLatestObservable<Source, Element>) -> ShareLatestConnection<Source, Element> = {
            ShareLatestConnection(parent: $0)
        },
        makeSink: @escaping (Sink<Element>) -> ShareLatestSink<Source, Element> = { ShareLatestSink(downstream: $0) }
    ) {
        self.source = source
        self.replays = replays
        self.makeConnection = makeConnection
        self.makeSink = makeSink
        self.relay = relay
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        // Out of the critical section through captured variables: a generic tuple as its result
        // would cost a metadata lookup.
        var created: ShareLatestConnection<Source, Element>?
        var joining: ShareLatestSink<Source, Element>?
        var catchingUp: ShareLatestCatchUp<Element>?
        lock.locked {
            if let live = connection {
                // Joined under the connection's lock (the sink runs no user code) so that a
                // connection ending meanwhile cannot be joined.
                let joined: Bool = live.lock.locked {
                    if live.ended { return false }
                    let sink = makeSink(downstream)
                    sink.join(live)
                    joining = sink
                    if live.hasLatest {
                        catchingUp = live.startCatchUpLocked(sink)
                    } else {
                        sink.setSlot(live.observers.append(sink, target: downstream))
                    }
                    return true
                }
                if joined { return }
            }
            // The subscriber that connects is the connection's first observer, and the connection is
            // its disposable (no sink of its own: one object fewer per stage and subscription).
            // Nobody else sees the connection before this lock is released.
            let current = makeConnection(self)
            connection = current
            current.observers.append(current, target: downstream)
            created = current
        }
        if let created {
            created.setUpstream(source.subscribe(sink: created))
            return created.asDisposable
        }
        let sink = joining.unsafelyUnwrapped
        if let catchingUp { sink.catchUp(catchingUp) }
        return sink.asDisposable
    }
}

extension ShareLatestObservable where Source == Element {
    /// The plain share: elements relayed as they come. Inlinable, so that the relay closure is made,
    /// specialized, where the share is.
    @inlinable
    convenience init(source: Observable<Element>, replays: Bool) {
        self.init(source: source, replays: replays, relay: { $0.relay($1) })
    }
}

/// One connection of ``ShareLatestObservable``: receives the source's events and relays them to the
/// observers. Everything but the upstream subscription is guarded by its `lock`.
///
/// An `OperatorSink` for its upstream handling only; its downstream is a sink that is never called.
@usableFromInline
final class ShareLatestConnection<Source, Element>: OperatorSink<Source, Never>, @unchecked Sendable {
    @usableFromInline let lock = Mutex<Void>(())
    @usableFromInline let replays: Bool
    /// The share's ``ShareLatestObservable/relay``.
    private let relayThrough: (ShareLatestConnection<Source, Element>, Source) -> Void
    @usableFromInline @exclusivity(unchecked) var observers = ShareObservers()
    @usableFromInline @exclusivity(unchecked) var ended = false
    /// Two slots (replaying connections only), allocated at the first element, that take turns:
    /// `latest` holds the latest element; a new one goes into `spare`, the two swap, and the element
    /// replaced waits in `spare` to be released after unlocking. Kept out of an `Element?` so the
    /// per-element path needs no metadata of its own. `spare` belongs to the (serialized) sender.
    @usableFromInline @exclusivity(unchecked) var latest: UnsafeMutablePointer<Element>?
    @usableFromInline @exclusivity(unchecked) var spare: UnsafeMutablePointer<Element>?
    @usableFromInline @exclusivity(unchecked) var hasLatest = false
    /// `ShareLatestCatchUp<Element>`s, held as `AnyObject`: an array of the generic class would be a
    /// metadata lookup per connection (and per element, where the relay checks it for emptiness).
    @usableFromInline @exclusivity(unchecked) var catchUps = ContiguousArray<AnyObject>()

    @usableFromInline
    init(parent: ShareLatestObservable<Source, Element>) {
        replays = parent.replays
        relayThrough = parent.relay
        super.init(downstream: UncalledSink.instance)
    }

    override func next(_ element: Source) {
        relayThrough(self, element)
    }

    /// The per-element path, called through ``ShareLatestObservable/relay``, which is made where the
    /// element type is concrete: unspecialized, storing and releasing an element costs several
    /// value-witness calls through the standard library's generic functions per stage.
    @inlinable
    final func relay(_ element: Element) {
        // The first observer's downstream is taken retained, once, and called without another
        // retain (a strong copy cost two retain/release pairs per stage and element), and directly,
        // not through its share sink (a call and a check fewer per stage): it is called before any
        // other observer, so no other observer's handler can have disposed it on this thread, and
        // the downstream sinks check their own disposal.
        var first: Unmanaged<AnySink>?
        var others: ContiguousArray<AnySink?>?
        var isLive = false
        let didReplace = lock.lockedInline {
            if ended { return false }
            isLive = true
            if !catchUps.isEmpty { appendToCatchUpsLocked(element) }
            if let target = observers.firstTarget { first = Unmanaged.passRetained(target) }
            if observers.hasOthers { others = observers.others }
            guard replays else { return false }
            guard let current = latest, let next = spare else {
                storeFirstLocked(element)
                return false
            }
            // The two slots swap: the replaced element waits in `spare`.
            next.initialize(to: element)
            latest = next
            spare = current
            if hasLatest { return true }
            hasLatest = true
            return false
        }
        // The replaced element is released after unlocking (its deinitializer may call back into the
        // share) and after delivering (it may dispose the first observer, whose downstream is called
        // directly). It leaves `spare` first, so that a re-entrant send finds the slot empty.
        guard didReplace else {
            if isLive { deliver(element, first: first, others: others) }
            return
        }
        let replaced = spare.unsafelyUnwrapped.move()
        withExtendedLifetime(replaced) {
            if isLive { deliver(element, first: first, others: others) }
        }
    }

    /// Ends the connection, if it has not ended, and hands over its observers and the slot of its
    /// latest element (to release after unlocking); `nil` if it had ended. A terminal event goes to
    /// the subscribers catching up as well.
    private func end(with termination: Termination?) -> (ShareObservers, UnsafeMutableRawPointer?)? {
        var stopped = ShareObservers()
        var released: UnsafeMutableRawPointer?
        let wasLive: Bool = lock.locked {
            if ended { return false }
            if let termination, !catchUps.isEmpty { appendToCatchUpsLocked(termination) }
            swap(&stopped, &observers)
            released = endLocked()
            return true
        }
        return wasLive ? (stopped, released) : nil
    }

    override func terminate(_ termination: Termination) {
        guard let (stopped, released) = end(with: termination) else { return }
        // The connection ended before its subscribers hear of it, so one that resubscribes from its
        // terminal handler starts a new connection (as in RxSwift).
        stopped.forEach { observer, target in
            // The connecting subscriber has no sink: its downstream hears of the end directly.
            unsafeDowncast(observer === self ? target : observer, to: Sink<Element>.self).terminate(termination)
        }
        // The latest element is released after unlocking (its deinitializer may call back into the
        // share) and after the terminal events (it may dispose the connecting subscriber, which has
        // no sink of its own to drop the event).
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
        disconnect()
    }

    /// The source let go of the connection for good (a subject the share was made on was released
    /// with the subscription undisposed): the connection ends without a terminal event, and every
    /// observer hears that its source is gone, so that the chains below are released too.
    override func forwardSourceRelease() {
        guard let (stopped, released) = end(with: nil) else { return }
        stopped.forEach { observer, target in
            (observer === self ? target : observer).sourceReleased()
        }
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
    }

    /// The connecting subscriber leaves: the connection is its disposable. Idempotent (a second call
    /// finds it gone from the observers). Unlike a sink's, the handle's `isDisposed` says whether the
    /// connection has ended, not whether this subscriber left; the library never asks a share
    /// handle, and public `subscribe` hands out its own disposable.
    override func dispose() {
        leave(self)
    }

    /// Ends the upstream subscription.
    private func disconnect() {
        super.dispose()
    }

    /// `first` and `others` were taken under the lock and hold the sinks: a subscriber leaving
    /// meanwhile is not released under us.
    @inlinable @inline(__always)
    final func deliver(_ element: Element, first: Unmanaged<AnySink>?, others: ContiguousArray<AnySink?>?) {
        if let first {
            first._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Sink<Element>.self).next(element) }
            first.release()
        }
        if let others { deliverToOthers(element, others) }
    }

    @usableFromInline @inline(never)
    func deliverToOthers(_ element: Element, _ others: ContiguousArray<AnySink?>) {
        for case let sink? in others { unsafeDowncast(sink, to: Sink<Element>.self).next(element) }
    }

    @usableFromInline @inline(never)
    func storeFirstLocked(_ element: Element) {
        let slots = RawMemory.allocate(
            byteCount: 2 * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment
        ).bindMemory(to: Element.self, capacity: 2)
        slots.initialize(to: element)
        latest = slots
        spare = slots + 1
        hasLatest = true
    }

    /// Ends the connection; returns the slot of its latest element, if it has one, for the caller to
    /// release after unlocking (its deinitializer may call back into the share). The element stays
    /// in its slot (no move through value witnesses); a sender that relayed before the end uses the
    /// other slot only, and one that comes after finds the connection ended.
    private func endLocked() -> UnsafeMutableRawPointer? {
        ended = true
        guard hasLatest else { return nil }
        hasLatest = false
        return UnsafeMutableRawPointer(latest.unsafelyUnwrapped)
    }

    deinit {
        // The replaced element left after each element; the latest one left at the end, unless the
        // connection is released without ending. The allocation starts at the lower of the two.
        // Compared as raw pointers: `min` of generic pointers costs a metadata and witness lookup.
        if let latest, let spare {
            if hasLatest { latest.deinitialize(count: 1) }
            RawMemory.deallocate(Swift.min(UnsafeMutableRawPointer(latest), UnsafeMutableRawPointer(spare)))
        }
    }

    /// A subscriber has gone; the last one disconnects the source.
    func leave(_ sink: AnySink) {
        var isLast = false
        var released: UnsafeMutableRawPointer?
        lock.locked {
            removeLocked(sink)
            // Every subscriber is in the observers or catching up until it leaves.
            guard !ended, observers.isEmpty, catchUps.isEmpty else { return }
            isLast = true
            released = endLocked()
        }
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
        if isLast { disconnect() }
    }

    /// Takes `sink` out of the observers or the catch-up list in O(1), if it is there: the
    /// connection itself is the first place; a share sink knows its slot (see ``ShareLatestSink``).
    private func removeLocked(_ sink: AnySink) {
        if observers.first === sink {
            observers.removeFirst()
            return
        }
        // The connection is never among the others or catching up (and is no share sink).
        guard sink !== self else { return }
        let slot = unsafeDowncast(sink, to: ShareLatestSink<Source, Element>.self).takeSlot()
        if slot <= ShareLatestSink<Source, Element>.firstCatchUpSlot {
            removeCatchUpLocked(at: ShareLatestSink<Source, Element>.firstCatchUpSlot - slot)
            return
        }
        // An ended connection handed its observers over to its terminal event: the slot is stale.
        guard slot >= 0, !ended else { return }
        observers.removeOther(at: slot) { moved, slot in
            unsafeDowncast(moved, to: ShareLatestSink<Source, Element>.self).setSlot(slot)
        }
    }

    // MARK: - Catching up (a subscriber joining a connection that has an element to replay)

    @inline(never)
    func startCatchUpLocked(_ sink: ShareLatestSink<Source, Element>) -> ShareLatestCatchUp<Element> {
        let entry = ShareLatestCatchUp<Element>(sink: sink, target: sink.downstream)
        entry.elements.append(latest.unsafelyUnwrapped.pointee)
        sink.setSlot(ShareLatestSink<Source, Element>.firstCatchUpSlot - catchUps.count)
        catchUps.append(entry)
        return entry
    }

    @usableFromInline @inline(never)
    func appendToCatchUpsLocked(_ element: Element) {
        for case let entry as ShareLatestCatchUp<Element> in catchUps where entry.termination == nil {
            entry.elements.append(element)
        }
    }

    @inline(never)
    private func appendToCatchUpsLocked(_ termination: Termination) {
        for case let entry as ShareLatestCatchUp<Element> in catchUps where entry.termination == nil {
            entry.termination = termination
        }
    }

    /// Takes the entry at `index` out of the catch-up list. Their order does not matter (each entry
    /// has its own elements), so the last entry takes its place, and its sink is told.
    @inline(never)
    private func removeCatchUpLocked(at index: Int) {
        unsafeDowncast(catchUps[index], to: ShareLatestCatchUp<Element>.self).isRemoved = true
        let last = catchUps.count - 1
        if index != last {
            catchUps.swapAt(index, last)
            let moved = unsafeDowncast(catchUps[index], to: ShareLatestCatchUp<Element>.self)
            unsafeDowncast(moved.sink, to: ShareLatestSink<Source, Element>.self).setSlot(
                ShareLatestSink<Source, Element>.firstCatchUpSlot - index)
        }
        catchUps.removeLast()
    }

    /// Delivers the replayed element, then whatever arrived meanwhile, on the subscribing thread;
    /// joins the observers once nothing is left to deliver.
    @inline(never)
    func catchUp(_ entry: ShareLatestCatchUp<Element>) {
        while true {
            var elements: [Element] = []
            var termination: Termination?
            var sourceGone = false
            lock.locked {
                if entry.isRemoved { return }
                swap(&elements, &entry.elements)
                termination = entry.termination
                // Ended without a terminal event: the source let go of the connection
                // (``forwardSourceRelease()``), which told the observers but not this subscriber.
                sourceGone = elements.isEmpty && termination == nil && ended
                if elements.isEmpty || termination != nil {
                    finishCatchUpLocked(entry, joins: termination == nil && !sourceGone)
                }
            }
            for element in elements { entry.sink.next(element) }
            if let termination { entry.sink.terminate(termination) }
            if sourceGone { entry.sink.sourceReleased() }
            if elements.isEmpty || termination != nil { return }
        }
    }
}

extension ShareLatestConnection {
    /// A subscriber has caught up: it leaves the catch-up list and, unless the connection ended, joins
    /// the observers.
    @inline(never)
    fileprivate func finishCatchUpLocked(_ entry: ShareLatestCatchUp<Element>, joins: Bool) {
        let sink = unsafeDowncast(entry.sink, to: ShareLatestSink<Source, Element>.self)
        removeCatchUpLocked(at: ShareLatestSink<Source, Element>.firstCatchUpSlot - sink.takeSlot())
        if joins { sink.setSlot(observers.append(sink, target: entry.target)) }
    }
}

/// A subscriber catching up: what it has still to receive before it joins the observers. Guarded by
/// the connection's lock; its sink's slot is its index in the connection's catch-up list.
final class ShareLatestCatchUp<Element> {
    let sink: Sink<Element>
    /// The sink's downstream, where elements go once it has joined.
    let target: AnySink
    var elements: [Element] = []
    var termination: Termination?
    var isRemoved = false

    init(sink: Sink<Element>, target: AnySink) {
        self.sink = sink
        self.target = target
    }
}

/// One subscriber of ``ShareLatestObservable``.
@usableFromInline
final class ShareLatestSink<Source, Element>: ForwardingSink<Element>, @unchecked Sendable {
    /// Set once, in the critical section that publishes the sink.
    @exclusivity(unchecked) private var connection: ShareLatestConnection<Source, Element>?
    /// Where the connection keeps the sink, guarded by the producer's lock: its index among the
    /// other observers (``ShareObservers/others``) when it is 0 or more; its index `i` in the
    /// catch-up list as `firstCatchUpSlot - i`; -1 when it is in neither (first, or gone). What
    /// leaving reads instead of searching the lists.
    @exclusivity(unchecked) private var slot = -1

    /// The slot of the first entry of the catch-up list.
    static var firstCatchUpSlot: Int { -2 }

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

    /// A method, not a property set by the producer: there the sink's field offset would cost a
    /// generic metadata lookup per subscription; here the sink's own metadata is at hand.
    func join(_ joined: ShareLatestConnection<Source, Element>) {
        connection = joined
    }

    /// Receives the replay and what arrived meanwhile, then joins the observers.
    func catchUp(_ entry: ShareLatestCatchUp<Element>) {
        connection.unsafelyUnwrapped.catchUp(entry)
    }

    @usableFromInline
    override init(downstream: Sink<Element>) {
        super.init(downstream: downstream)
    }

    override func disposeResources() {
        connection?.leave(self)
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
/// Leaving costs O(1) amortized, whatever the number of observers: one of the others leaves a `nil`
/// in its slot (so the order of the rest holds), and the slots are compacted once more than half
/// are empty. A sender's snapshot is the array itself (copy-on-write), only copied when it changes
/// while a snapshot is held.
@usableFromInline
struct ShareObservers {
    @usableFromInline var first: AnySink?
    @usableFromInline var firstTarget: AnySink?
    @usableFromInline var others = ContiguousArray<AnySink?>()
    /// How many slots of `others` are empty.
    @usableFromInline var vacant = 0

    /// Adds an observer; returns its slot among the others, or -1 if it took the first place.
    @discardableResult
    mutating func append(_ sink: AnySink, target: AnySink) -> Int {
        if isEmpty {
            first = sink
            firstTarget = target
            // Only holes can be left in the others.
            if !others.isEmpty {
                others = []
                vacant = 0
            }
            return -1
        }
        others.append(sink)
        return others.count - 1
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
        others[slot] = nil
        vacant += 1
        guard vacant > others.count &>> 1 else { return }
        // In place, moving the sinks without reference counting; only empty slots are dropped.
        let kept = others.withUnsafeMutableBufferPointer { slots in
            var kept = 0
            for index in slots.indices {
                guard let sink = slots[index] else { continue }
                renumber(sink, kept)
                if index != kept { slots.swapAt(index, kept) }
                kept += 1
            }
            return kept
        }
        others.removeLast(others.count - kept)
        vacant = 0
    }

    /// Whether any of the others is there. Inlinable: the relay asks it per element, and a call
    /// would take the whole struct (three retains and releases).
    @inlinable var hasOthers: Bool { others.count != vacant }

    var isEmpty: Bool { first == nil && !hasOthers }

    /// Calls `body` with each observer and, for the first, its downstream (the others' is their own).
    func forEach(_ body: (AnySink, AnySink) -> Void) {
        if let first, let firstTarget { body(first, firstTarget) }
        for case let sink? in others { body(sink, sink) }
    }
}
