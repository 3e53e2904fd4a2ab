import Synchronization

/// The producer of `share(replay:scope: .whileConnected)`: one connection (a subject and one
/// subscription to the source) for as long as it has subscribers.
///
/// Unlike `multicast(makeSubject:).refCount()`, a subscriber joins a connection and subscribes to
/// that connection's own subject, decided in one critical section, so a subscriber arriving while the
/// last one leaves on another thread can never be left on a dropped subject: it either joins the
/// ending connection before it ends (and sees its terminal event, if any) or starts the next one.
///
/// Thread-safety: `connection` and every connection's `count` are guarded by `lock`. Subscribing to
/// the subject and to the source, and disposing the source subscription, happen after unlocking.
final class ShareWhileConnectedObservable<Element>: Observable<Element>, @unchecked Sendable {
    let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var connection: ShareConnection<Element>?
    private let source: Observable<Element>
    private let replay: Int

    init(source: Observable<Element>, replay: Int) {
        self.source = source
        self.replay = replay
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let (joined, isFirst) = lock.locked { () -> (ShareConnection<Element>, Bool) in
            if let current = connection {
                current.count += 1
                return (current, false)
            }
            let started = ShareConnection(parent: self, replay: replay)
            started.count = 1
            connection = started
            return (started, true)
        }
        let sink = ShareSink(connection: joined, downstream: downstream)
        sink.setUpstream(joined.subject.subscribe(sink: sink))
        if isFirst { joined.setUpstream(source.subscribe(SinkObserver(joined))) }
        return sink.asDisposable
    }

    /// A subscriber of `left` has gone; disposes the connection if it was the last one.
    func leave(_ left: ShareConnection<Element>) {
        let isLast: Bool = lock.locked {
            guard connection === left else { return false }  // already ended
            left.count -= 1
            guard left.count == 0 else { return false }
            connection = nil
            return true
        }
        if isLast { left.dispose() }
    }

    /// `ended` has ended (its source terminated or it was disposed): the next subscriber starts anew.
    func end(_ ended: ShareConnection<Element>) {
        lock.locked {
            if connection === ended { connection = nil }
        }
    }
}

/// One connection of `share(… .whileConnected)`: relays the source into its own subject.
final class ShareConnection<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    /// The subscribers of this connection; guarded by the parent's lock.
    @exclusivity(unchecked) var count = 0
    let subject: Observable<Element>
    let parent: ShareWhileConnectedObservable<Element>

    init(parent: ShareWhileConnectedObservable<Element>, replay: Int) {
        self.parent = parent
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

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        // The connection ends before its subscribers hear of it, so one that resubscribes from its
        // terminal handler starts a new connection (as in RxSwift).
        parent.end(self)
        forwardTermination(termination)
    }

    override func disposeResources() {
        parent.end(self)
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
        connection.parent.leave(connection)
    }
}
