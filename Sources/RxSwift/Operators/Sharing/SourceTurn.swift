/// A connection of a share that subscribes the share's source when its turn comes (see
/// ``SourceTurn``).
protocol SourceTurnTaker: AnyObject {
    /// Subscribes the source and stores the subscription (`setUpstream`). Once, outside any lock.
    func subscribeSource()
    /// Lets go of the source it holds: it will never subscribe. Called under its owner's lock.
    func abandonTurn()
}

/// Which connection of a share may have a subscription to the source: one at a time, so the source
/// (perhaps a request, a file or a scan) never has two live subscriptions from one share. A connection
/// holds the turn until it *retires*: it has ended and the thread that subscribed it has stored the
/// subscription. A connection made before waits, and the thread that retires the old one subscribes
/// it; one that ends or is withdrawn while waiting never subscribes.
///
/// Thread-safety: guarded by its owner's lock; subscriptions happen after unlocking
/// (``subscribeInTurn(_:retiring:)``).
struct SourceTurn {
    /// The connection whose source subscription may be live.
    private var live: AnyObject?
    private var queued: (any SourceTurnTaker)?
    private var liveEnded = false
    private var liveSubscribed = false

    init() {}

    /// `connection` wants to subscribe: whether it may now; otherwise it waits for the live one to retire.
    mutating func requestLocked(_ connection: any SourceTurnTaker) -> Bool {
        guard live == nil else {
            // One waits at a time: one that was waiting is passed over and never subscribes.
            if let passedOver = queued, passedOver !== connection { passedOver.abandonTurn() }
            queued = connection
            return false
        }
        live = connection
        liveEnded = false
        liveSubscribed = false
        return true
    }

    /// `connection`'s subscription is stored: the connection to subscribe next, if this one retired.
    mutating func subscribedLocked(_ connection: AnyObject) -> (any SourceTurnTaker)? {
        guard live === connection else { return nil }
        liveSubscribed = true
        return retireIfDoneLocked()
    }

    /// `connection` has ended: the connection to subscribe next, if this one retired; a waiting one
    /// leaves the queue.
    mutating func endedLocked(_ connection: AnyObject) -> (any SourceTurnTaker)? {
        withdrawLocked(connection)
        guard live === connection else { return nil }
        liveEnded = true
        return retireIfDoneLocked()
    }

    /// `connection`'s source terminated: its subscription is over, as if disposed (a subscriber may
    /// subscribe again from its terminal handler first). The connection to subscribe next, if any.
    mutating func terminatedLocked(_ connection: AnyObject) -> (any SourceTurnTaker)? {
        guard live === connection else { return nil }
        liveEnded = true
        liveSubscribed = true
        return retireIfDoneLocked()
    }

    /// `connection` is no longer wanted: if it is waiting, it never subscribes.
    mutating func withdrawLocked(_ connection: AnyObject) {
        if let waiting = queued, waiting === connection {
            waiting.abandonTurn()
            queued = nil
        }
    }

    private mutating func retireIfDoneLocked() -> (any SourceTurnTaker)? {
        guard liveEnded && liveSubscribed else { return nil }
        let next = queued
        queued = nil
        live = next
        liveEnded = false
        liveSubscribed = false
        return next
    }
}

extension OperatorSink where Input == Output {
    /// For a connection whose turn has come: subscribes to the source it held, unless disposed meanwhile.
    final func subscribe(takingOver waitingSource: inout Observable<Input>?) {
        let source = waitingSource.take().unsafelyUnwrapped
        guard !isDisposed else { return }
        setUpstream(source.subscribe(SinkObserver(self)))
    }
}

/// Subscribes `first`, then each connection whose turn comes as the one before retires while being
/// subscribed (`retiring`: ``SourceTurn/subscribedLocked(_:)`` under the owner's lock). A loop.
func subscribeInTurn(_ first: any SourceTurnTaker, retiring: (AnyObject) -> (any SourceTurnTaker)?) {
    var current = first
    while true {
        current.subscribeSource()
        guard let next = retiring(current) else { return }
        current = next
    }
}
