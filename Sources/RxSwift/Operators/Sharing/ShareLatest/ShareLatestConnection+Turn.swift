import Synchronization

// Taking turns at the source (``SourceTurn`` says why): a connection made while its predecessor has
// not retired waits as its successor, and the thread that retires the predecessor subscribes it. A
// connection retires once it has ended and the thread that subscribed it has stored the
// subscription; one that ends before its turn never subscribes and passes the turn on.
//
// Thread-safety: `turn` is atomic; `successor` is written before its bit is set in `turn` and read
// (and cleared) by the one thread that sees the bit with the connection retired.

/// The steps of a connection's turn (``ShareLatestConnection/turn``), globals (DESIGN.md, "The hot
/// path"). A connection has retired once it has started, been subscribed (or never will be) and ended.
let shareTurnStarted: UInt8 = 1
let shareTurnSubscribed: UInt8 = 2
let shareTurnEnded: UInt8 = 4
/// A successor is stored in ``ShareLatestConnection/successor`` (set after storing it).
let shareTurnHasSuccessor: UInt8 = 8
let shareTurnRetired = shareTurnStarted | shareTurnSubscribed | shareTurnEnded

/// A connection waiting for its predecessor to retire, and the source it will subscribe. Made only
/// when the previous connection may still be subscribed; not generic.
final class ShareTurnHandoff {
    let next: AnyObject
    let source: AnyObject

    init(next: AnyObject, source: AnyObject) {
        self.next = next
        self.source = source
    }
}

// The turn is one atomic word, not state under the lock (the `DriveCreating` benchmark); each step
// is one `bitwiseOr`. Of the step that completes the turn and the one that stores a successor,
// whichever comes second starts the successor.
extension ShareLatestConnection {
    /// Under the share's lock, with `next` not yet published: `next` follows this connection and will
    /// subscribe `source`; whether it may subscribe now (the caller then calls ``subscribeInTurn(_:)``).
    func passTurn(to next: ShareLatestConnection<Source, Element>, source: Observable<Source>) -> Bool {
        guard turn.load(ordering: .acquiring) & shareTurnRetired != shareTurnRetired else { return true }
        // `next` was made started: it waits instead.
        next.turn.store(0, ordering: .relaxed)
        successor = Unmanaged.passRetained(ShareTurnHandoff(next: next, source: source))
        let before = turn.bitwiseOr(shareTurnHasSuccessor, ordering: .acquiringAndReleasing).oldValue
        guard before & shareTurnRetired == shareTurnRetired else { return false }
        // Retired meanwhile, without seeing the successor: it is this thread's to start.
        successor.take()?.release()
        next.turn.store(shareTurnStarted, ordering: .relaxed)
        return true
    }

    /// Subscribes this connection to `source`, then each successor whose turn comes.
    @inline(__always)
    func subscribeInTurn(_ source: Observable<Source>) {
        setUpstream(source.subscribe(sink: self))
        // Mostly nil: the connection has not ended yet, or nobody waits for it.
        if let handoff = mark(shareTurnSubscribed) { Self.startSuccessors(from: handoff) }
    }

    /// The source subscription is disposed, or will be once stored: starts the successor, if any.
    @inline(__always)
    func endTurn() {
        if let handoff = mark(shareTurnEnded) { Self.startSuccessors(from: handoff) }
    }

    /// The source terminated: the subscription is over, as if disposed (a subscriber may subscribe again
    /// from its terminal handler before `subscribe` returned it, as RxSwift lets it).
    func endTurnTerminated() {
        if let handoff = mark(shareTurnSubscribed | shareTurnEnded) { Self.startSuccessors(from: handoff) }
    }

    /// Subscribes the first connection from `first` whose turn comes (those that ended while waiting
    /// retire without subscribing), then the next as each retires. A loop, out of line.
    @inline(never)
    private static func startSuccessors(from first: ShareTurnHandoff) {
        var handoff = first
        while true {
            let next = unsafeDowncast(handoff.next, to: ShareLatestConnection<Source, Element>.self)
            let before = next.turn.bitwiseOr(shareTurnStarted, ordering: .acquiringAndReleasing).oldValue
            // Ended while it waited, or disposed as its turn came: nothing to subscribe.
            if before & shareTurnEnded == 0 && !next.isDisposed {
                let source = unsafeDowncast(handoff.source, to: Observable<Source>.self)
                next.setUpstream(source.subscribe(sink: next))
            }
            guard let following = next.mark(shareTurnSubscribed) else { return }
            handoff = following
        }
    }

    /// Sets `bits` (idempotent); what to hand the successor, if this step retired the connection and the
    /// successor is stored.
    @inline(__always)
    private func mark(_ bits: UInt8) -> ShareTurnHandoff? {
        let before = turn.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue
        guard before & shareTurnRetired != shareTurnRetired, (before | bits) & shareTurnRetired == shareTurnRetired,
            before & shareTurnHasSuccessor != 0
        else { return nil }
        return takeSuccessor()
    }

    @inline(never)
    private func takeSuccessor() -> ShareTurnHandoff? {
        successor.take()?.takeRetainedValue()
    }
}
