import Synchronization

/// The producer of `share(replay: 0 or 1, scope: .whileConnected)`, which RxCocoa adds after every
/// `Driver` and `Signal` operator (DESIGN.md, "Who delivers"): a connection is one object holding its
/// observers and the latest element under one lock (the `DrivePumping` and `DriveCreating`
/// benchmarks). Semantics are ``ShareWhileConnectedObservable``'s.
///
/// Files: this one (subscribing), `ShareLatestConnection.swift` (relaying, ending), `+CatchUp`,
/// `+Turn`, `ShareLatestSink.swift` (a subscriber, the observers).
@usableFromInline
final class ShareLatestObservable<Source, Element>: Observable<Element>, @unchecked Sendable {
    let lock = Mutex<Void>(())
    /// The latest connection, live or ended; guarded by `lock`. Connections do not refer back to the
    /// share (DESIGN.md, "Lifetime"), so a connection has a lock of its own, taken inside this one.
    @exclusivity(unchecked) var connection: ShareLatestConnection<Source, Element>?
    let source: Observable<Source>
    @usableFromInline let replays: Bool
    private let makeConnection: (ShareLatestObservable<Source, Element>) -> ShareLatestConnection<Source, Element>
    private let makeSink: (Sink<Element>) -> ShareLatestSink<Source, Element>
    /// Relays an element through a connection, specialized where the share was made.
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
        // Out through captured variables (DESIGN.md, "The hot path").
        var created: ShareLatestConnection<Source, Element>?
        var joining: ShareLatestSink<Source, Element>?
        var catchingUp = false
        var startsNow = false
        lock.locked {
            if let live = connection {
                // Joined under the connection's lock (no user code) so an ending connection cannot be joined.
                let joined: Bool = live.lock.locked {
                    if live.ended { return false }
                    let sink = makeSink(downstream)
                    sink.join(live)
                    joining = sink
                    if live.hasLatest {
                        live.startCatchUpLocked(sink)
                        catchingUp = true
                    } else {
                        sink.setSlot(live.observers.append(sink, target: downstream))
                    }
                    return true
                }
                if joined { return }
            }
            // The connecting subscriber is the connection's first observer, and the connection is its
            // disposable. Nobody else sees the connection before unlocking.
            let current = makeConnection(self)
            // If the previous connection may still be subscribed, this one waits for its turn.
            startsNow = connection?.passTurn(to: current, source: source) ?? true
            connection = current
            current.observers.append(current, target: downstream)
            created = current
        }
        if let created {
            if startsNow { created.subscribeInTurn(source) }
            return created.asDisposable
        }
        let sink = joining.unsafelyUnwrapped
        if catchingUp { sink.catchUp() }
        return sink.asDisposable
    }
}

extension ShareLatestObservable where Source == Element {
    /// The plain share; inlinable, so the relay is specialized where the share is made.
    @inlinable
    convenience init(source: Observable<Element>, replays: Bool) {
        self.init(source: source, replays: replays, relay: { $0.relay($1) })
    }
}
