import Synchronization

/// The producer of `share(replay:scope: .whileConnected)`: one connection (a subject and one
/// subscription to the source) for as long as it has subscribers.
///
/// Unlike `multicast(makeSubject:).refCount()`, a subscriber joins a connection and subscribes to
/// that connection's own subject, decided in one critical section, so a subscriber arriving while the
/// last one leaves on another thread can never be left on a dropped subject: it either joins the
/// ending connection before it ends (and sees its terminal event, if any) or starts the next one.
///
/// Thread-safety: the hub's connection and every connection's `count` are guarded by the hub's lock.
/// Subscribing to the subject and to the source, and disposing the source subscription, happen
/// after unlocking. The connections hold the hub, not this producer (see ``ShareHub``).
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
        // Joined before its source let go of the connection, but subscribed to its subject after the
        // subject let go of its observers: nothing will ever send to it, so it lets go again.
        if !isFirst && joined.isSourceGone { joined.releaseObservers() }
        // Otherwise the previous connection's source subscription may still be live: the thread
        // that retires it subscribes this one.
        if startsNow { hub.subscribeInTurn(joined) }
        return sink.asDisposable
    }

}

/// What a `share(… .whileConnected)` and its connections share: the lock, the live connection, and
/// which connection may have a subscription to the source (``SourceTurn``).
/// Apart from the share, so that a connection does not hold the share, and with it the source: a
/// subject the share was made on would otherwise be kept alive by its own subscription (subject →
/// its observer, the connection → the share → the subject), and never released with a
/// subscription nobody disposed. Not generic: making it looks no metadata up.
final class ShareHub: @unchecked Sendable {
    let lock = Mutex<Void>(())
    /// The share's live connection; guarded by `lock`.
    @exclusivity(unchecked) var connection: AnyObject?
    /// Guarded by `lock`.
    @exclusivity(unchecked) var turn = SourceTurn()

    init() {}

    /// `ended`'s source subscription is disposed, or will be once stored: subscribes the connection
    /// whose turn comes, if any (outside the lock).
    func ended(_ ended: AnyObject) {
        if let next = lock.locked({ turn.endedLocked(ended) }) { subscribeInTurn(next) }
    }

    /// `terminated`'s source terminated: its subscription is over; subscribes the connection whose
    /// turn comes, if any (outside the lock).
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
    /// The subscribers of this connection; guarded by the parent's lock.
    @exclusivity(unchecked) var count = 0
    /// Whether the source let go of this connection; guarded by the hub's lock.
    @exclusivity(unchecked) private var sourceLetGo = false
    let subject: Observable<Element>
    private let hub: ShareHub
    /// The source, held until it is subscribed (not after: see ``ShareHub``); written before the
    /// connection is published, taken once by the thread whose turn it is.
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
        // The connection ends before its subscribers hear of it, so one that resubscribes from its
        // terminal handler starts a new connection (as in RxSwift), which subscribes the source at
        // once: this one's subscription is over.
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

    /// This connection has ended (its source terminated, it was disposed or its source let go of
    /// it): the next subscriber starts anew.
    private func end() {
        hub.lock.locked {
            if hub.connection === self { hub.connection = nil }
        }
    }

    /// The source let go of the connection for good (a subject the share was made on was released
    /// with the subscription undisposed): the connection ends without a terminal event, and its
    /// subject lets go of its subscribers the way a released subject does, so that the chains
    /// below are released too.
    override func forwardSourceGone() {
        hub.lock.locked {
            sourceLetGo = true
            if hub.connection === self { hub.connection = nil }
        }
        hub.ended(self)
        releaseObservers()
    }

    /// Whether the source let go of this connection. Read after subscribing to the subject: if the
    /// subject let go of its observers before, this is already true (set before, under the hub's lock).
    var isSourceGone: Bool {
        hub.lock.locked { sourceLetGo }
    }

    /// The subject lets go of its observers the way a released subject does.
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
