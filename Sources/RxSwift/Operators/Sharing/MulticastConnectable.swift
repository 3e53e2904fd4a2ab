import Synchronization

/// The connectable observable behind `multicast`, `publish` and `replay`: subscribers subscribe to
/// the current subject; `connect()` subscribes that subject to the source once per connection.
///
/// Each subject has a *generation*, which changes when the subject is forgotten: the connection
/// ended, or `refCount()` decided to end it (``MulticastRefCountObservable``).
///
/// Thread-safety: the subject, its generation and the connection are guarded by `lock` (which also
/// guards the state of its ``MulticastRefCountObservable``s). User code (`makeSubject`, the subject's
/// `asObserver()`) and subscriptions run outside it.
final class MulticastConnectable<Source, Subject: SubjectType>: ConnectableObservable<Subject.Element>,
    @unchecked Sendable
where Subject.Observer.Element == Source {
    let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var subject: Subject?
    @exclusivity(unchecked) private(set) var generation: UInt = 0
    @exclusivity(unchecked) private var connection: MulticastConnection<Source>?
    private let source: Observable<Source>
    let makeSubject: () -> Subject

    init(source: Observable<Source>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// The current subject and its generation, making one (outside the lock) if there is none.
    private func currentSubject() -> (Subject, UInt) {
        let known: (Subject?, UInt) = lock.locked { (subject, generation) }
        if let current = known.0 { return (current, known.1) }
        let made = makeSubject()
        return lock.locked {
            if let current = subject { return (current, generation) }
            subject = made
            return (made, generation)
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
        if subject == nil, let made { subject = made }
        return subject
    }

    /// Under `lock`: forgets the subject of `ended` and its connection, if `ended` is still the
    /// current generation and connected; returns the connection, to dispose after unlocking.
    /// Subscribers arriving from now on get a new subject.
    func detachLocked(generation ended: UInt) -> MulticastConnection<Source>? {
        guard generation == ended, let detached = connection else { return nil }
        connection = nil
        subject = nil
        generation &+= 1
        return detached
    }

    /// Connects the subject of `wanted` unless that generation has ended or is already connected, or
    /// `stillWanted` (asked under `lock`) says no.
    func connect(generation wanted: UInt, if stillWanted: () -> Bool) {
        guard let subject = lock.locked({ generation == wanted && stillWanted() ? subject : nil }) else { return }
        let observer = SinkObserver.sink(for: subject.asObserver())
        let candidate = MulticastConnection(parent: self, downstream: observer)
        let installed = lock.locked { () -> Bool in
            guard generation == wanted, connection == nil, stillWanted() else { return false }
            connection = candidate
            return true
        }
        if installed { candidate.setUpstream(source.subscribe(SinkObserver(candidate))) }
    }

    override func connect() -> Disposable {
        while true {
            if let existing = lock.locked({ connection }) { return existing }
            let (subject, subjectGeneration) = currentSubject()
            let observer = SinkObserver.sink(for: subject.asObserver())
            let candidate = MulticastConnection(parent: self, downstream: observer)
            let outcome: MulticastConnection<Source>? = lock.locked {
                if let existing = connection { return existing }
                guard generation == subjectGeneration else { return nil }
                connection = candidate
                return candidate
            }
            guard let outcome else { continue }  // the subject changed meanwhile: start again
            if outcome === candidate {
                candidate.setUpstream(source.subscribe(SinkObserver(candidate)))
            }
            return outcome
        }
    }

    /// Forgets `ended` and its subject if it is still the current connection.
    func release(_ ended: MulticastConnection<Source>) {
        lock.locked {
            guard connection === ended else { return }
            connection = nil
            subject = nil
            generation &+= 1
        }
    }
}

/// One connection of a ``MulticastConnectable``: relays the source's events into the subject.
/// Disposing it (or the source terminating) ends the connection and forgets its subject.
final class MulticastConnection<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    /// Tells the connectable observable that this connection has ended (strong: the connectable
    /// holds the connection only while it is current, so there is no lasting cycle).
    private let onEnd: (MulticastConnection<Element>) -> Void

    init<Subject>(parent: MulticastConnectable<Element, Subject>, downstream: Sink<Element>) {
        onEnd = { parent.release($0) }
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        // As in RxSwift, the connection ends before the subject hears of it, so an observer that
        // resubscribes from its terminal handler finds a fresh subject.
        if isForwarding { release() }
        forwardTermination(termination)
    }

    override func disposeResources() {
        release()
    }

    private func release() {
        onEnd(self)
    }
}
