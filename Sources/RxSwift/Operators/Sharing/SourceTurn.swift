/// A connection of a share that subscribes the share's source when its turn comes (see
/// ``SourceTurn``).
protocol SourceTurnTaker: AnyObject {
    /// Subscribes the source and stores the subscription (`setUpstream`, which disposes it at once
    /// if the connection was disposed meanwhile). Called once, outside any lock.
    func subscribeSource()
    /// Lets go of the source it holds: it will never subscribe. Called under its owner's lock.
    func abandonTurn()
}

/// Which connection of a share may have a subscription to the source: one at a time, so that the
/// source never has two live subscriptions from one share (a source that is a resource, such as a
/// request, a file or a scan, may refuse or misbehave with two).
///
/// A connection holds the turn until it *retires*: it has ended (disposed, or let go of by its
/// source: its source subscription is disposed, or will be as soon as it is stored) and the thread
/// that subscribed it has stored the subscription. A connection made before that waits, queued,
/// and the thread that retires the old one subscribes it, outside the lock; a queued connection
/// that ends (or is withdrawn) before its turn never subscribes, and a later one takes its place.
///
/// Thread-safety: guarded by its owner's lock; the subscriptions happen after unlocking
/// (``subscribeInTurn(_:retiring:)``).
struct SourceTurn {
    /// The connection whose source subscription may be live.
    private var live: AnyObject?
    private var queued: (any SourceTurnTaker)?
    private var liveEnded = false
    private var liveSubscribed = false

    init() {}

    /// `connection` wants to subscribe: whether it may now (the caller then subscribes it through
    /// ``subscribeInTurn(_:retiring:)``); otherwise it waits for the live one to retire.
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

    /// The thread that subscribed `connection` has stored its subscription: the connection to
    /// subscribe next, if this one has retired and another is waiting.
    mutating func subscribedLocked(_ connection: AnyObject) -> (any SourceTurnTaker)? {
        guard live === connection else { return nil }
        liveSubscribed = true
        return retireIfDoneLocked()
    }

    /// `connection` has ended (its source subscription is disposed, or will be once stored): the
    /// connection to subscribe next, if this one has retired and another is waiting. A connection
    /// still waiting leaves the queue.
    mutating func endedLocked(_ connection: AnyObject) -> (any SourceTurnTaker)? {
        withdrawLocked(connection)
        guard live === connection else { return nil }
        liveEnded = true
        return retireIfDoneLocked()
    }

    /// `connection`'s source terminated: its subscription is over, as if disposed (the disposal
    /// itself comes after the subscribers hear of the end, and one of them may subscribe again from
    /// its terminal handler, as RxSwift lets it, before `subscribe` has even returned the
    /// subscription to dispose). The connection to subscribe next, if one is waiting.
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
    /// For a connection whose turn has come: subscribes this sink to the source it held (which it
    /// lets go of), unless it was disposed while it waited or as its turn came.
    final func subscribe(takingOver waitingSource: inout Observable<Input>?) {
        let source = waitingSource.take().unsafelyUnwrapped
        guard !isDisposed else { return }
        setUpstream(source.subscribe(SinkObserver(self)))
    }
}

/// Subscribes `first`, then each connection whose turn comes as the one before retires while being
/// subscribed (a synchronous source that terminates, a disposal during the subscription):
/// `retiring` reports, under the owner's lock, that a connection's subscription is stored
/// (``SourceTurn/subscribedLocked(_:)``). A loop, not a recursion: the stack does not grow.
func subscribeInTurn(_ first: any SourceTurnTaker, retiring: (AnyObject) -> (any SourceTurnTaker)?) {
    var current = first
    while true {
        current.subscribeSource()
        guard let next = retiring(current) else { return }
        current = next
    }
}
