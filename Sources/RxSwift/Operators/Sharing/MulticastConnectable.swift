import Synchronization

/// The connectable observable behind `multicast`, `publish` and `replay`: subscribers subscribe to
/// the current subject; `connect()` subscribes that subject to the source once per connection.
///
/// Each subject has a *generation*, which changes when the subject is forgotten: the connection
/// ended, or `refCount()` decided to end it (``MulticastRefCountObservable``).
///
/// Thread-safety: the subject, its generation and the connection are guarded by the state's `lock`
/// (which also guards the state of its ``MulticastRefCountObservable``s). User code (`makeSubject`,
/// the subject's `asObserver()`) and subscriptions run outside it.
final class MulticastConnectable<Source, Subject: SubjectType>: ConnectableObservable<Subject.Element>,
    @unchecked Sendable
where Subject.Observer.Element == Source {
    /// What the connections and the refCounts' subscribers share with this connectable; they hold
    /// it and not the connectable, which holds the source (see ``MulticastState``).
    let state = MulticastState<Source, Subject>()
    private let source: Observable<Source>
    let makeSubject: () -> Subject
    /// Whether the subjects are this connectable's own (made per connection, or made by the library
    /// for it), so that a source letting go may release their observers; not a subject the caller
    /// passed in and may still feed.
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

    /// Under `lock`: the current subject, installing `made` if there is none; `nil` if there is none
    /// and nothing was made (the caller makes one outside the lock, then asks again).
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
            // Otherwise the previous connection's source subscription may still be live: the
            // thread that retires it subscribes this one.
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

/// The state a ``MulticastConnectable`` shares with its connections and with its refCounts'
/// subscribers: the lock, the current subject, its generation, its connection, and which connection
/// may have a subscription to the source (``SourceTurn``: a connection made while the previous
/// one's subscription may still be live subscribes once that one is disposed). Apart from the
/// connectable, so that none of them holds the connectable, and with it the source: a subject the
/// connectable was made on would otherwise be kept alive by its own subscription (subject → its
/// observer, the connection → the connectable → the subject) and never released with a
/// subscription nobody disposed.
///
/// Thread-safety: everything but `lock` is guarded by `lock`.
final class MulticastState<Source, Subject>: @unchecked Sendable {
    let lock = Mutex<Void>(())
    @exclusivity(unchecked) var subject: Subject?
    @exclusivity(unchecked) var generation: UInt = 0
    @exclusivity(unchecked) var connection: MulticastConnection<Source>?
    /// The latest generation whose source let go of its connection while the share owned its subject
    /// (which then let go of its observers).
    @exclusivity(unchecked) var sourceGoneGeneration: UInt?
    @exclusivity(unchecked) var turn = SourceTurn()

    /// Under `lock`: forgets the subject of `ended` and its connection, if `ended` is still the
    /// current generation and connected; returns the connection, to dispose after unlocking.
    /// Subscribers arriving from now on get a new subject.
    func detachLocked(generation ended: UInt) -> MulticastConnection<Source>? {
        guard generation == ended, let detached = connection else { return nil }
        // Still waiting for its turn, it never subscribes.
        turn.withdrawLocked(detached)
        connection = nil
        subject = nil
        generation &+= 1
        return detached
    }

    /// Forgets `ended` and its subject if it is still the current connection; once its source
    /// subscription is gone, subscribes the connection waiting for its turn, if any.
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
    /// Tells the connectable's state that this connection has ended (strong: the state holds the
    /// connection only while it is current or waiting for its turn, so there is no lasting cycle).
    private let onEnd: (MulticastConnection<Element>, MulticastEnd) -> Void
    /// Releases the observers of the connection's subject, if it is the connectable's own.
    private let releaseObservers: (() -> Void)?
    /// The source, held until it is subscribed (not after: see ``MulticastState``); written before
    /// the connection is published, taken once by the thread whose turn it is.
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

    /// The source let go of the connection for good (a subject the connectable was made on was
    /// released with the subscription undisposed): the connection ends without an event, and its
    /// subject, if it is the connectable's own, lets go of its subscribers as a released subject
    /// does, so that the chains below are released too.
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
        // As in RxSwift, the connection ends before the subject hears of it, so an observer that
        // resubscribes from its terminal handler finds a fresh subject, whose connection subscribes
        // the source at once: this one's subscription is over.
        if isForwarding { onEnd(self, .terminating) }
        forwardTermination(termination)
    }

    override func disposeResources() {
        // When the source let go first, its release disposes the subscription and reports it.
        onEnd(self, sourceGoneGoesOn ? .disposedWhileSourceReleases : .disposed)
    }
}

/// How a ``MulticastConnection`` tells its state it has ended (see ``MulticastState/end(_:_:)``).
/// Not nested in the state, which is generic over the subject too.
enum MulticastEnd {
    /// Its source terminated: its subscription is over (and disposed after the subject hears of it).
    case terminating
    /// Its source subscription is disposed, or will be as soon as it is stored.
    case disposed
    /// Its source let go of it (and its subscription is disposed).
    case sourceGone
    /// Disposed after its source let go of it: the source's release reports the end, once it has
    /// disposed the subscription.
    case disposedWhileSourceReleases
}
