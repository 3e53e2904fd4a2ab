import Synchronization

/// The producer of `share(replay:scope: .whileConnected)`: one connection (a subject and one source
/// subscription) while it has subscribers. Joining a connection and subscribing to its subject are
/// decided in one critical section, so a subscriber arriving while the last one leaves either joins
/// the ending connection or starts the next one.
///
/// Thread-safety: the hub's connection and every connection's `count` are guarded by the hub's lock.
/// Subscribing and disposing happen after unlocking. The connections hold the hub, not this producer.
final class ShareWhileConnectedObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let hub = ShareHub()
    private let source: Observable<Element>
    private let replay: Int

    init(source: Observable<Element>, replay: Int) {
        self.source = source
        self.replay = replay
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        var startsNow = false
        let (joined, isFirst) = hub.lock.locked { () -> (ShareConnection<Element>, Bool) in
            if let connected = hub.connection {
                let current = unsafeDowncast(connected, to: ShareConnection<Element>.self)
                current.count += 1
                return (current, false)
            }
            let started = ShareConnection<Element>(hub: hub, source: source, replay: replay)
            started.count = 1
            hub.connection = started
            startsNow = hub.turn.requestLocked(started)
            return (started, true)
        }
        let sink = ShareSink(connection: joined, downstream: downstream)
        sink.setUpstream(joined.subject.subscribe(sink: sink))
        // Joined before the source let go of the connection, subscribed after the subject let go of its
        // observers: nothing will send to it, so it lets go again.
        if !isFirst && joined.isSourceGone { joined.releaseObservers() }
        // If the previous connection may still be subscribed, the thread that retires it subscribes this one.
        if startsNow { hub.subscribeInTurn(joined) }
        return sink.asDisposable
    }

}

/// What a `share(… .whileConnected)` and its connections share: the lock, the live connection, the
/// ``SourceTurn``. Apart from the share, so a connection does not hold the source (DESIGN.md,
/// "Lifetime"); not generic.
final class ShareHub: @unchecked Sendable {
    let lock = Mutex<Void>(())
    /// The share's live connection; guarded by `lock`, as is `turn`.
    @exclusivity(unchecked) var connection: AnyObject?
    @exclusivity(unchecked) var turn = SourceTurn()

    init() {}

    /// `ended`'s source subscription is disposed (or will be once stored): subscribes the next in turn.
    func ended(_ ended: AnyObject) {
        if let next = lock.locked({ turn.endedLocked(ended) }) { subscribeInTurn(next) }
    }

    /// `terminated`'s source terminated: subscribes the next in turn.
    func terminated(_ terminated: AnyObject) {
        if let next = lock.locked({ turn.terminatedLocked(terminated) }) { subscribeInTurn(next) }
    }

    /// Subscribes `first` to the source, and those whose turn comes after it (outside the lock).
    func subscribeInTurn(_ first: any SourceTurnTaker) {
        RxSwift.subscribeInTurn(first) { subscribed in lock.locked { turn.subscribedLocked(subscribed) } }
    }
}

/// One connection of `share(… .whileConnected)`: relays the source into its own subject.
final class ShareConnection<Element>: OperatorSink<Element, Element>, SourceTurnTaker, @unchecked Sendable {
    @exclusivity(unchecked) var count = 0
    @exclusivity(unchecked) private var sourceLetGo = false
    let subject: Observable<Element>
    private let hub: ShareHub
    /// The source, held until subscribed (see ``ShareHub``); written before the connection is published,
    /// taken once by the thread whose turn it is.
    @exclusivity(unchecked) private var waitingSource: Observable<Element>?

    init(hub: ShareHub, source: Observable<Element>, replay: Int) {
        self.hub = hub
        waitingSource = source
        if replay == 0 {
            let publish = PublishSubject<Element>()
            subject = publish
            super.init(downstream: SinkObserver.sink(for: publish))
        } else {
            let buffered = ReplaySubject<Element>.create(bufferSize: replay)
            subject = buffered
            super.init(downstream: SinkObserver.sink(for: buffered))
        }
    }

    func subscribeSource() {
        subscribe(takingOver: &waitingSource)
    }

    func abandonTurn() {
        waitingSource = nil
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        // Ended before its subscribers hear of it, so one resubscribing from its terminal handler starts a
        // new connection, as in RxSwift.
        end()
        hub.terminated(self)
        forwardTermination(termination)
    }

    override func disposeResources() {
        end()
        // When the source let go first, its release disposes the subscription and reports it.
        if !sourceGoneGoesOn { hub.ended(self) }
    }

    /// A subscriber has gone; disposes the connection if it was the last one.
    func leave() {
        let isLast: Bool = hub.lock.locked {
            guard hub.connection === self else { return false }  // already ended
            count -= 1
            guard count == 0 else { return false }
            hub.connection = nil
            // Still waiting for its turn, it never subscribes.
            hub.turn.withdrawLocked(self)
            return true
        }
        if isLast { dispose() }
    }

    /// This connection has ended: the next subscriber starts anew.
    private func end() {
        hub.lock.locked {
            if hub.connection === self { hub.connection = nil }
        }
    }

    /// The source let go for good: the connection ends without a terminal event, and its subject lets go
    /// of its subscribers as a released subject does.
    override func forwardSourceGone() {
        hub.lock.locked {
            sourceLetGo = true
            if hub.connection === self { hub.connection = nil }
        }
        hub.ended(self)
        releaseObservers()
    }

    /// Whether the source let go of this connection; set under the hub's lock before the subject lets go
    /// of its observers, so reading it after subscribing is safe.
    var isSourceGone: Bool {
        hub.lock.locked { sourceLetGo }
    }

    func releaseObservers() {
        (subject as? any ReleasableSubject)?.releaseObserversForGood()
    }
}

/// One subscriber of `share(… .whileConnected)`.
final class ShareSink<Element>: ForwardingSink<Element>, @unchecked Sendable {
    private let connection: ShareConnection<Element>

    init(connection: ShareConnection<Element>, downstream: Sink<Element>) {
        self.connection = connection
        super.init(downstream: downstream)
    }

    override func disposeResources() {
        connection.leave()
    }
}
