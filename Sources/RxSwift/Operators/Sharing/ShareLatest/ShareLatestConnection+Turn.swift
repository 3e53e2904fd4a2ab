import Synchronization

/// Taking turns at the source: a connection subscribes the source only once the previous
/// connection's source subscription is disposed, so that the source never has two live
/// subscriptions from one share (``SourceTurn`` says why). The connections do not refer back to the
/// share (see ``ShareLatestObservable/connection``), so the turn passes along them: a connection
/// made while its predecessor has not retired waits as its successor, and the thread that retires
/// the predecessor subscribes it. A connection retires once it has ended (its source subscription
/// is disposed, or will be as soon as it is stored) and the thread that subscribed it has stored
/// the subscription; a waiting connection that ends before its turn never subscribes, and passes
/// the turn on.
///
/// Thread-safety: `turn` and `successor` are guarded by the connection's lock; `waitingSource` is
/// written before the connection is published and taken by the thread whose turn it is.
extension ShareLatestConnection {
    static var turnStartedBit: UInt8 { 1 }
    static var turnSubscribedBit: UInt8 { 2 }
    static var turnEndedBit: UInt8 { 4 }
    static var turnRetiredBit: UInt8 { 8 }

    /// Under the share's lock, with `next` not yet published: `next` follows this connection (the
    /// share's previous one); whether it may subscribe now.
    func passTurnLocked(to next: ShareLatestConnection<Source, Element>) -> Bool {
        let startsNow: Bool = lock.locked {
            if turn & Self.turnRetiredBit != 0 { return true }
            successor = next
            return false
        }
        if startsNow { next.turn = Self.turnStartedBit }
        return startsNow
    }

    /// Subscribes this connection, whose turn it is, then each successor whose turn comes as the one
    /// before retires. A loop: the stack does not grow.
    func subscribeInTurn() {
        var current = self
        while true {
            let source = current.waitingSource.unsafelyUnwrapped
            current.waitingSource = nil
            current.setUpstream(source.subscribe(sink: current))
            let connection = current
            let retired = connection.lock.locked { connection.markLocked(Self.turnSubscribedBit) }
            guard let retired, let next = Self.firstToStart(from: retired) else { return }
            current = next
        }
    }

    /// The source subscription is disposed, or will be once stored: subscribes the successor whose
    /// turn comes, if any.
    func endTurn() {
        let retired = lock.locked { markLocked(Self.turnEndedBit) }
        if let retired, let next = Self.firstToStart(from: retired) { next.subscribeInTurn() }
    }

    /// Sets `bit`; the successor, if this connection has just retired and has one. Under the lock.
    private func markLocked(_ bit: UInt8) -> ShareLatestConnection<Source, Element>? {
        turn |= bit
        let done = Self.turnStartedBit | Self.turnSubscribedBit | Self.turnEndedBit
        guard turn & (done | Self.turnRetiredBit) == done else { return nil }
        turn |= Self.turnRetiredBit
        defer { successor = nil }
        return successor
    }

    /// The first of `first` and its successors that has not ended, now starting its turn; those
    /// that ended while waiting retire without subscribing.
    private static func firstToStart(
        from first: ShareLatestConnection<Source, Element>
    ) -> ShareLatestConnection<Source, Element>? {
        var candidate = first
        while true {
            let connection = candidate
            let passedOn: ShareLatestConnection<Source, Element>?? = connection.lock.locked {
                guard connection.turn & turnEndedBit != 0 else {
                    connection.turn |= turnStartedBit
                    return .none
                }
                connection.turn |= turnRetiredBit
                defer { connection.successor = nil }
                return .some(connection.successor)
            }
            guard case .some(let next) = passedOn else { return connection }
            guard let next else { return nil }
            candidate = next
        }
    }
}
