import Synchronization

/// One connection of ``ShareLatestObservable``: receives the source's events and relays them to the
/// observers. Everything but the upstream subscription is guarded by its `lock`.
///
/// An `OperatorSink` for its upstream handling only; its downstream is a sink that is never called.
/// It doubles as the handle of the subscriber that connected (one object fewer per stage), so its
/// `dispose()` is that subscriber leaving (``removeSubscriber(_:)``); ``tearDown()`` ends the
/// upstream subscription, once the last subscriber has left or the connection ended.
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
    /// The subscribers catching up (their sinks), made on first use.
    @exclusivity(unchecked) var catchUpsStorage: CatchUpRoster<AnySink>?
    /// How many subscribers are catching up: what the relay tests, without the roster.
    @usableFromInline @exclusivity(unchecked) var catchUpCount = 0
    /// Its turn at the source (`ShareLatestConnection+Turn.swift`): how far it has got (atomic;
    /// started unless made to wait), and the connection waiting for it to retire, with the source
    /// it will subscribe (retained by hand: most connections never have one, and a strong optional
    /// would cost each of them a release when it goes).
    let turn = Atomic<UInt8>(shareTurnStarted)
    @exclusivity(unchecked) var successor: Unmanaged<ShareTurnHandoff>?

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
        // retain (a strong copy costs retains and releases per stage and element: `DrivePumping`), and directly,
        // not through its share sink (a call and a check fewer per stage): it is called before any
        // other observer, so no other observer's handler can have disposed it on this thread, and
        // the downstream sinks check their own disposal.
        var first: Unmanaged<AnySink>?
        var others: ContiguousArray<AnySink?>?
        var isLive = false
        let didReplace = lock.lockedInline {
            if ended { return false }
            isLive = true
            if catchUpCount != 0 { appendToCatchUpsLocked(element) }
            if let target = observers.firstTarget { first = Unmanaged.passRetained(target) }
            if observers.hasOthers { others = observers.others.entries }
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
            if let termination, catchUpCount != 0 { appendToCatchUpsLocked(termination) }
            swap(&stopped, &observers)
            released = endLocked()
            return true
        }
        return wasLive ? (stopped, released) : nil
    }

    override func terminate(_ termination: Termination) {
        guard let (stopped, released) = end(with: termination) else { return }
        // The connection ended before its subscribers hear of it, so one that resubscribes from its
        // terminal handler starts a new connection (as in RxSwift), which subscribes the source at
        // once: this one's subscription is over.
        endTurnTerminated()
        stopped.forEach { observer, target in
            // The connecting subscriber has no sink: its downstream hears of the end directly.
            unsafeDowncast(observer === self ? target : observer, to: Sink<Element>.self).terminate(termination)
        }
        // The latest element is released after unlocking (its deinitializer may call back into the
        // share) and after the terminal events (it may dispose the connecting subscriber, which has
        // no sink of its own to drop the event).
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
        tearDown()
    }

    /// The source let go of the connection for good (a subject the share was made on was released
    /// with the subscription undisposed): the connection ends without a terminal event, and every
    /// observer hears that its source is gone, so that the chains below are released too.
    override func forwardSourceGone() {
        endTurn()
        guard let (stopped, released) = end(with: nil) else { return }
        stopped.forEach { observer, target in
            (observer === self ? target : observer).sourceGone()
        }
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
    }

    /// Not the connection's end: the connection is its first subscriber's disposable, so disposing
    /// it is that subscriber leaving (the connection ends, with ``tearDown()``, when the last one
    /// leaves). Idempotent (a second call finds it gone from the observers). Unlike a sink's, the handle's `isDisposed` says whether the
    /// connection has ended, not whether this subscriber left; the library never asks a share
    /// handle, and public `subscribe` hands out its own disposable.
    override func dispose() {
        removeSubscriber(self)
    }

    /// Ends the connection: disposes the upstream subscription (the last subscriber left, or the
    /// source terminated).
    func tearDown() {
        super.dispose()
    }

    /// The upstream subscription is disposed (or will be, once stored); when the source let go
    /// first, its release disposes it and ends the turn.
    override func disposeResources() {
        if !sourceGoneGoesOn { endTurn() }
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
    ///
    /// The ended connection stays with its share until the next subscriber replaces it (it cannot
    /// refer back to the share to leave: see ``ShareLatestObservable/connection``), inert: so from
    /// here on it is not counted as a live resource, and a share whose subscribers have all gone
    /// leaves `Resources.total` where it was before they came, as RxSwift's, which drops its
    /// connection, does. Its deinitializer counts it back before the base class uncounts it.
    private func endLocked() -> UnsafeMutableRawPointer? {
        ended = true
        #if DEBUG
            Resources.decrementTotal()
        #endif
        guard hasLatest else { return nil }
        hasLatest = false
        return UnsafeMutableRawPointer(latest.unsafelyUnwrapped)
    }

    deinit {
        #if DEBUG
            if ended { Resources.incrementTotal() }
        #endif
        // Released without retiring (never ended): the waiting connection it held goes too.
        successor?.release()
        // The replaced element left after each element; the latest one left at the end, unless the
        // connection is released without ending. The allocation starts at the lower of the two.
        // Compared as raw pointers: `min` of generic pointers costs a metadata and witness lookup.
        if let latest, let spare {
            if hasLatest { latest.deinitialize(count: 1) }
            RawMemory.deallocate(Swift.min(UnsafeMutableRawPointer(latest), UnsafeMutableRawPointer(spare)))
        }
    }

    /// A subscriber has gone; the last one tears the connection down.
    func removeSubscriber(_ sink: AnySink) {
        var isLast = false
        var released: UnsafeMutableRawPointer?
        var queue: AnyObject?
        lock.locked {
            queue = removeLocked(sink)
            // Every subscriber is in the observers or catching up until it leaves.
            guard !ended, observers.isEmpty, catchUpCount == 0 else { return }
            isLast = true
            // The emptied slots go now, not with the ended connection (holes only: no sink is
            // released under the lock).
            observers = ShareObservers()
            released = endLocked()
        }
        // What was kept for a subscriber still catching up goes after unlocking: the elements'
        // deinitializers may call back into the share.
        withExtendedLifetime(queue) {}
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
        if isLast { tearDown() }
    }

    /// Takes `sink` out of the observers or the catch-up roster in O(1), if it is there: the
    /// connection itself is the first place; a share sink knows its slot (see ``ShareLatestSink``).
    /// Returns what was kept for it if it was catching up.
    private func removeLocked(_ sink: AnySink) -> AnyObject? {
        if observers.first === sink {
            observers.removeFirst()
            return nil
        }
        // The connection is never among the others or catching up (and is no share sink).
        guard sink !== self else { return nil }
        let slot = unsafeDowncast(sink, to: ShareLatestSink<Source, Element>.self).takeSlot()
        if slot <= shareFirstCatchUpSlot {
            return removeCatchUpLocked(at: shareFirstCatchUpSlot - slot)
        }
        // An ended connection handed its observers over to its terminal event: the slot is stale.
        guard slot >= 0, !ended else { return nil }
        observers.removeOther(at: slot) { moved, slot in
            unsafeDowncast(moved, to: ShareLatestSink<Source, Element>.self).setSlot(slot)
        }
        return nil
    }
}
