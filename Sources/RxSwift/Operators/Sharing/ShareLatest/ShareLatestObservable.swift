import Synchronization

/// The producer of `share(replay: 0 or 1, scope: .whileConnected)`, the sharing RxCocoa adds after
/// every `Driver` (replay 1) and `Signal` (replay 0) operator, so a Driver chain holds one per stage.
///
/// Built for that case rather than on a subject: a connection is one object holding its observers
/// and the latest element, guarded by the producer's lock (one critical section per element), and
/// subscribing makes two objects (a connection for the first subscriber, a sink per subscriber).
/// The `DrivePumping` and `DriveCreating` benchmarks measure it; Benchmarks/README.md, "Alternatives
/// considered", says what a subject-based share costs there.
///
/// Semantics are those of ``ShareWhileConnectedObservable`` (and RxSwift's
/// `ShareReplay1WhileConnected`): the first subscriber connects, the last one leaving disconnects,
/// a terminated connection is dropped before its observers hear of it, and a new subscriber
/// receives the latest element first. That replay is made without calling out under the lock: the
/// subscriber is registered as catching up, receives the element on its own thread, and then every
/// element that arrived meanwhile, before it joins the observers — so it never misses or reorders an
/// element delivered concurrently on another thread. The observers are an ``ObserverList`` and the
/// subscribers catching up a ``CatchUpRoster``, the storage the subjects use.
///
/// The files: this one (subscribing), `ShareLatestConnection.swift` (relaying and ending),
/// `ShareLatestConnection+CatchUp.swift`, `ShareLatestSink.swift` (a subscriber, and the observers).
///
/// The classes are generic, and their methods run unspecialized; whatever they allocate is made by
/// closures written in the caller's (specialized) code, so no generic metadata is looked up per
/// subscription (see "Performance" and the `DriveCreating` benchmark).
@usableFromInline
final class ShareLatestObservable<Source, Element>: Observable<Element>, @unchecked Sendable {
    let lock = Mutex<Void>(())
    /// The latest connection, live or ended; guarded by `lock`. The connections do not refer back
    /// to the share (nor so to the source): a subject the share was made on would otherwise be kept
    /// alive by its own subscription (subject → its observer, the connection → the share → the
    /// subject), and never released with a subscription nobody disposed. So a connection has a
    /// lock of its own, taken inside this one, and an ended connection stays here until replaced.
    @exclusivity(unchecked) var connection: ShareLatestConnection<Source, Element>?
    let source: Observable<Source>
    @usableFromInline let replays: Bool
    private let makeConnection: (ShareLatestObservable<Source, Element>) -> ShareLatestConnection<Source, Element>
    private let makeSink: (Sink<Element>) -> ShareLatestSink<Source, Element>
    /// Relays an element through a connection, specialized for the element type where the share
    /// was made: the per-element path moves elements without value witnesses and inlines the lock.
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
        // Out of the critical section through captured variables: a generic tuple as its result
        // would cost a metadata lookup.
        var created: ShareLatestConnection<Source, Element>?
        var joining: ShareLatestSink<Source, Element>?
        var catchingUp = false
        var startsNow = false
        lock.locked {
            if let live = connection {
                // Joined under the connection's lock (the sink runs no user code) so that a
                // connection ending meanwhile cannot be joined.
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
            // The subscriber that connects is the connection's first observer, and the connection is
            // its disposable (no sink of its own: one object fewer per stage and subscription).
            // Nobody else sees the connection before this lock is released.
            let current = makeConnection(self)
            // The previous connection's source subscription may still be live: then this one
            // waits, holding the source, and the thread that retires that one subscribes it.
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
    /// The plain share: elements relayed as they come. Inlinable, so that the relay closure is made,
    /// specialized, where the share is.
    @inlinable
    convenience init(source: Observable<Element>, replays: Bool) {
        self.init(source: source, replays: replays, relay: { $0.relay($1) })
    }
}
