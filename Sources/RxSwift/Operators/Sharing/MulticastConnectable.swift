import Synchronization

/// The connectable observable behind `multicast`, `publish` and `replay`: subscribers subscribe to the
/// current subject; `connect()` subscribes it to the source once per connection. Each subject has a
/// *generation*, which changes when the subject is forgotten (the connection ended, or `refCount()`
/// ended it).
///
/// Thread-safety: the subject, its generation and the connection are guarded by the state's `lock`
/// (which also guards its ``MulticastRefCountObservable``s' state). User code and subscriptions run
/// outside it.
final class MulticastConnectable<Source, Subject: SubjectType>: ConnectableObservable<Subject.Element>,
    @unchecked Sendable
where Subject.Observer.Element == Source {
    /// Shared with the connections and the refCounts' subscribers (see ``MulticastState``).
    let state = MulticastState<Source, Subject>()
    private let source: Observable<Source>
    let makeSubject: () -> Subject
    /// Whether the subjects are this connectable's own, so that a source letting go may release their
    /// observers; not a subject the caller passed in and may still feed.
    private let ownsSubjects: Bool

    init(source: Observable<Source>, makeSubject: @escaping () -> Subject, ownsSubjects: Bool) {
        self.source = source
        self.makeSubject = makeSubject
        self.ownsSubjects = ownsSubjects
    }

    /// The current subject and its generation, making one (outside the lock) if there is none.
    private func currentSubject() -> (Subject, UInt) {
        let known: (Subject?, UInt) = state.lock.locked { (state.subject, state.generation) }
        if let current = known.0 { return (current, known.1) }
        let made = makeSubject()
        return state.lock.locked {
            if let current = state.subject { return (current, state.generation) }
            state.subject = made
            return (made, state.generation)
        }
    }

    override func subscribe(sink: Sink<Subject.Element>) -> Disposable {
        currentSubject().0.asObservable().subscribe(sink: sink)
    }

    override func makeRefCount() -> Observable<Subject.Element>? {
        MulticastRefCountObservable(connectable: self)
    }

    /// The current subject, installing `made` if there is none; `nil` if none and nothing was made (the
    /// caller makes one outside the lock and asks again).
    func currentSubjectLocked(installing made: Subject?) -> Subject? {
        if state.subject == nil, let made { state.subject = made }
        return state.subject
    }

    /// Connects the subject of `wanted` unless that generation has ended or is already connected, or
    /// `stillWanted` (asked under `lock`) says no.
    func connect(generation wanted: UInt, if stillWanted: () -> Bool) {
        guard
            let subject = state.lock.locked({ state.generation == wanted && stillWanted() ? state.subject : nil })
        else { return }
        let candidate = makeConnection(to: subject)
        let startsNow = state.lock.locked { () -> Bool in
            guard state.generation == wanted, state.connection == nil, stillWanted() else { return false }
            state.connection = candidate
            return state.turn.requestLocked(candidate)
        }
        if startsNow { state.subscribeInTurn(candidate) }
    }

    override func connect() -> Disposable {
        while true {
            if let existing = state.lock.locked({ state.connection }) { return existing }
            let (subject, subjectGeneration) = currentSubject()
            let candidate = makeConnection(to: subject)
            var startsNow = false
            let outcome: MulticastConnection<Source>? = state.lock.locked {
                if let existing = state.connection { return existing }
                guard state.generation == subjectGeneration else { return nil }
                state.connection = candidate
                startsNow = state.turn.requestLocked(candidate)
                return candidate
            }
            guard let outcome else { continue }  // the subject changed meanwhile: start again
            // Otherwise the previous connection's subscription may still be live: the thread that retires it
            // subscribes this one.
            if startsNow { state.subscribeInTurn(candidate) }
            return outcome
        }
    }

    private func makeConnection(to subject: Subject) -> MulticastConnection<Source> {
        let observer = SinkObserver.sink(for: subject.asObserver())
        let releaseObservers: (() -> Void)? =
            ownsSubjects ? { (subject as? any ReleasableSubject)?.releaseObserversForGood() } : nil
        return MulticastConnection(
            state: state, source: source, downstream: observer, releaseObservers: releaseObservers)
    }
}

/// The state a ``MulticastConnectable`` shares with its connections and its refCounts' subscribers:
/// the lock, the current subject, its generation, its connection, and the ``SourceTurn``. Kept apart
/// so that none of them holds the connectable and with it the source: a subject the connectable was
/// made on would be kept alive by its own subscription (DESIGN.md, "Lifetime").
///
/// Thread-safety: everything but `lock` is guarded by `lock`.
final class MulticastState<Source, Subject>: @unchecked Sendable {
    let lock = Mutex<Void>(())
    @exclusivity(unchecked) var subject: Subject?
    @exclusivity(unchecked) var generation: UInt = 0
    @exclusivity(unchecked) var connection: MulticastConnection<Source>?
    /// The latest generation whose source let go of its connection while the share owned its subject.
    @exclusivity(unchecked) var sourceGoneGeneration: UInt?
    @exclusivity(unchecked) var turn = SourceTurn()

    /// Forgets the subject of `ended` and its connection, if still current and connected; returns the
    /// connection, to dispose after unlocking.
    func detachLocked(generation ended: UInt) -> MulticastConnection<Source>? {
        guard generation == ended, let detached = connection else { return nil }
        // Still waiting for its turn, it never subscribes.
        turn.withdrawLocked(detached)
        connection = nil
        subject = nil
        generation &+= 1
        return detached
    }

    /// Forgets `ended` and its subject if current; once its subscription is gone, subscribes the
    /// connection waiting for its turn.
    func end(_ ended: MulticastConnection<Source>, _ how: MulticastEnd) {
        let next = lock.locked { () -> (any SourceTurnTaker)? in
            if connection === ended {
                if how == .sourceGone { sourceGoneGeneration = generation }
                connection = nil
                subject = nil
                generation &+= 1
            }
            switch how {
            case .terminating: return turn.terminatedLocked(ended)
            case .disposed, .sourceGone: return turn.endedLocked(ended)
            case .disposedWhileSourceReleases: return nil
            }
        }
        if let next { subscribeInTurn(next) }
    }

    /// Subscribes `first` to the source, and those whose turn comes after it (outside the lock).
    func subscribeInTurn(_ first: any SourceTurnTaker) {
        RxSwift.subscribeInTurn(first) { subscribed in lock.locked { turn.subscribedLocked(subscribed) } }
    }
}

/// One connection of a ``MulticastConnectable``: relays the source's events into the subject.
/// Disposing it (or the source terminating) ends the connection and forgets its subject.
final class MulticastConnection<Element>: OperatorSink<Element, Element>, SourceTurnTaker, @unchecked Sendable {
    /// Tells the state this connection ended (strong: the state holds the connection only while it is
    /// current or waiting, so no lasting cycle).
    private let onEnd: (MulticastConnection<Element>, MulticastEnd) -> Void
    private let releaseObservers: (() -> Void)?
    /// The source, held until subscribed (see ``MulticastState``); written before the connection is
    /// published, taken once by the thread whose turn it is.
    @exclusivity(unchecked) private var waitingSource: Observable<Element>?

    init<Subject>(
        state: MulticastState<Element, Subject>, source: Observable<Element>, downstream: Sink<Element>,
        releaseObservers: (() -> Void)?
    ) {
        onEnd = { state.end($0, $1) }
        self.releaseObservers = releaseObservers
        waitingSource = source
        super.init(downstream: downstream)
    }

    func subscribeSource() {
        subscribe(takingOver: &waitingSource)
    }

    func abandonTurn() {
        waitingSource = nil
    }

    /// The source let go for good: the connection ends without an event, and its own subject lets go of
    /// its subscribers, so the chains below are released too.
    override func forwardSourceGone() {
        if let releaseObservers {
            onEnd(self, .sourceGone)
            releaseObservers()
        } else {
            onEnd(self, .disposed)
        }
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        // As in RxSwift, the connection ends before the subject hears of it, so an observer resubscribing
        // from its terminal handler finds a fresh subject.
        if isForwarding { onEnd(self, .terminating) }
        forwardTermination(termination)
    }

    override func disposeResources() {
        // When the source let go first, its release disposes the subscription and reports it.
        onEnd(self, sourceGoneGoesOn ? .disposedWhileSourceReleases : .disposed)
    }
}

/// How a ``MulticastConnection`` tells its state it has ended (``MulticastState/end(_:_:)``).
enum MulticastEnd {
    /// Its source terminated: its subscription is over (and disposed after the subject hears of it).
    case terminating
    /// Its source subscription is disposed, or will be as soon as it is stored.
    case disposed
    /// Its source let go of it (and its subscription is disposed).
    case sourceGone
    /// Disposed after its source let go: the source's release reports the end.
    case disposedWhileSourceReleases
}
