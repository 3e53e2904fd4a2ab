import Synchronization

/// One connection of ``ShareLatestObservable``: relays the source's events to the observers. Its
/// `lock` guards everything but the upstream subscription. It doubles as the handle of the subscriber
/// that connected, so its `dispose()` is that subscriber leaving; ``tearDown()`` ends the upstream
/// subscription once the last subscriber left or the connection ended.
@usableFromInline
final class ShareLatestConnection<Source, Element>: OperatorSink<Source, Never>, @unchecked Sendable {
    @usableFromInline let lock = Mutex<Void>(())
    @usableFromInline let replays: Bool
    private let relayThrough: (ShareLatestConnection<Source, Element>, Source) -> Void
    @usableFromInline @exclusivity(unchecked) var observers = ShareObservers()
    @usableFromInline @exclusivity(unchecked) var ended = false
    /// Two slots (replaying connections only), allocated at the first element, that take turns: a new
    /// element goes into `spare`, the two swap, and the replaced one is released from `spare` after
    /// unlocking (DESIGN.md, "The hot path"). `spare` belongs to the serialized sender.
    @usableFromInline @exclusivity(unchecked) var latest: UnsafeMutablePointer<Element>?
    @usableFromInline @exclusivity(unchecked) var spare: UnsafeMutablePointer<Element>?
    @usableFromInline @exclusivity(unchecked) var hasLatest = false
    @exclusivity(unchecked) var catchUpsStorage: CatchUpRoster<AnySink>?
    /// How many subscribers are catching up, tested by the relay without the roster.
    @usableFromInline @exclusivity(unchecked) var catchUpCount = 0
    /// Its turn at the source (`+Turn.swift`), and the connection waiting for it to retire, retained by
    /// hand.
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

    /// The per-element path, through ``ShareLatestObservable/relay``, made where the element type is
    /// concrete (DESIGN.md, "The hot path").
    @inlinable
    final func relay(_ element: Element) {
        // The first observer's downstream is taken retained once and called directly (the `DrivePumping`
        // benchmark): it is called before any other observer, so no other handler can have disposed it on
        // this thread, and downstream sinks check their own disposal.
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
        // The replaced element is released after unlocking and after delivering (it may dispose the first
        // observer); it leaves `spare` first, so that a re-entrant send finds the slot empty.
        guard didReplace else {
            if isLive { deliver(element, first: first, others: others) }
            return
        }
        let replaced = spare.unsafelyUnwrapped.move()
        withExtendedLifetime(replaced) {
            if isLive { deliver(element, first: first, others: others) }
        }
    }

    /// Ends the connection, if not ended, and hands over its observers and its latest element's slot (to
    /// release after unlocking); `nil` if it had ended.
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
        // Ended before its subscribers hear of it, so one resubscribing from its terminal handler starts a
        // new connection, as in RxSwift.
        endTurnTerminated()
        stopped.forEach { observer, target in
            // The connecting subscriber has no sink: its downstream hears of the end directly.
            unsafeDowncast(observer === self ? target : observer, to: Sink<Element>.self).terminate(termination)
        }
        // Released after unlocking and after the terminal events (it may dispose the connecting
        // subscriber, which has no sink to drop the event).
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
        tearDown()
    }

    /// The source let go for good: the connection ends without a terminal event, and every observer hears
    /// its source is gone.
    override func forwardSourceGone() {
        endTurn()
        guard let (stopped, released) = end(with: nil) else { return }
        stopped.forEach { observer, target in
            (observer === self ? target : observer).sourceGone()
        }
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
    }

    /// The connecting subscriber leaving (idempotent); the connection ends with ``tearDown()`` when the
    /// last one leaves. The handle's `isDisposed` says whether the connection ended; nothing asks it.
    override func dispose() {
        removeSubscriber(self)
    }

    func tearDown() {
        super.dispose()
    }

    /// Upstream is disposed (or will be, once stored); when the source let go first, its release does
    /// that and ends the turn.
    override func disposeResources() {
        if !sourceGoneGoesOn { endTurn() }
    }

    /// `first` and `others` were taken under the lock and hold the sinks.
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

    /// Ends the connection; returns its latest element's slot, to release after unlocking. A sender that
    /// relayed before the end uses the other slot only. The ended connection stays with its share, inert,
    /// until replaced, so it stops counting as a live resource here, as RxSwift's dropped connection does.
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
        // The allocation starts at the lower of the two slots, compared as raw pointers (DESIGN.md, "The
        // hot path").
        if let latest, let spare {
            if hasLatest { latest.deinitialize(count: 1) }
            RawMemory.deallocate(Swift.min(UnsafeMutableRawPointer(latest), UnsafeMutableRawPointer(spare)))
        }
    }

    func removeSubscriber(_ sink: AnySink) {
        var isLast = false
        var released: UnsafeMutableRawPointer?
        var queue: AnyObject?
        lock.locked {
            queue = removeLocked(sink)
            // Every subscriber is in the observers or catching up until it leaves.
            guard !ended, observers.isEmpty, catchUpCount == 0 else { return }
            isLast = true
            // The emptied slots go now (holes only: no sink is released under the lock).
            observers = ShareObservers()
            released = endLocked()
        }
        // Released after unlocking: deinitializers may call back into the share.
        withExtendedLifetime(queue) {}
        if let released { released.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
        if isLast { tearDown() }
    }

    /// Takes `sink` out of the observers or the roster in O(1) by its slot (``ShareLatestSink``);
    /// returns what was kept for it if it was catching up.
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
