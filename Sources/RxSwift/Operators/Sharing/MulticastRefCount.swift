import Synchronization

/// `refCount()` of the connectables made by `multicast`, `publish` and `replay`
/// (``MulticastConnectable``).
///
/// The generic ``RefCountObservable`` subscribes to the connectable, then counts the subscriber in;
/// with a subject per connection, the two can disagree when another thread ends the connection in
/// between: a subscriber arriving while the last one leaves could subscribe to the subject of the
/// connection being disconnected and count in the next one (which connects a new subject); one
/// arriving while the source terminates could subscribe to the next connection's subject and count
/// in the ending one (which nobody connects). Either way it waited for ever.
///
/// Here, as in `share(replay:scope:)`, which subject a subscriber joins and which connection it
/// counts in are decided in one critical section, under the connectable's own lock: a subscriber
/// either joins a connection before it ends (and receives its terminal event, if it terminates) or
/// starts the next one. Leaving last forgets the subject in the same critical section that brings
/// the count to zero, so nobody can join it after that.
///
/// Connecting and disconnecting call out to the source, so they are queued under the lock and
/// performed after unlocking, in order, by one thread at a time (the first that finds nobody
/// performing them). A subscriber is subscribed to its subject before the connection it asked for is
/// made, so a source that emits as it is connected reaches it.
///
/// Thread-safety: `count`, `countedGeneration`, `pending`, `draining` and each sink's
/// `countedGeneration` are guarded by the connectable's `lock`.
final class MulticastRefCountObservable<Source, Subject: SubjectType>: Observable<Subject.Element>,
    @unchecked Sendable
where Subject.Observer.Element == Source {
    typealias Element = Subject.Element

    /// A call out to the source, queued under the lock.
    private enum Operation {
        /// Connect the subject of this generation, if it still has subscribers.
        case connect(UInt)
        case disconnect(MulticastConnection<Source>)
    }

    let connectable: MulticastConnectable<Source, Subject>
    /// Subscribers counted in the connection of `countedGeneration`.
    @exclusivity(unchecked) private var count = 0
    /// The connectable's generation the count is for; `nil` when nobody counts.
    @exclusivity(unchecked) private var countedGeneration: UInt?
    @exclusivity(unchecked) private var pending: [Operation] = []
    @exclusivity(unchecked) private var draining = false

    init(connectable: MulticastConnectable<Source, Subject>) {
        self.connectable = connectable
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = MulticastRefCountSink(parent: self, downstream: downstream)
        let (subject, generation, connects) = join(sink)
        sink.setUpstream(subject.asObservable().subscribe(sink: sink))
        // Asked for after subscribing, so that what the source sends as it connects reaches the
        // subscriber. If it has left meanwhile (a terminated subject ended it while subscribing), the
        // connection is no longer wanted and is not made.
        if connects, connectable.lock.locked({ enqueueLocked(.connect(generation)) }) { drain() }
        return sink.asDisposable
    }

    /// Counts `sink` in the current connection and returns that connection's subject (made if there
    /// is none, outside the lock), its generation, and whether the sink is the first to count in it.
    private func join(_ sink: MulticastRefCountSink<Source, Subject>) -> (Subject, UInt, Bool) {
        var made: Subject?
        while true {
            let joined = connectable.lock.locked { () -> (Subject, UInt, Bool)? in
                guard let subject = connectable.currentSubjectLocked(installing: made) else { return nil }
                let generation = connectable.generation
                if countedGeneration != generation {
                    // The counted connection has ended (its source terminated): start the next one.
                    countedGeneration = generation
                    count = 0
                }
                count += 1
                sink.countedGeneration = generation
                return (subject, generation, count == 1)
            }
            if let joined { return joined }
            made = connectable.makeSubject()
        }
    }

    /// `sink` leaves: the last one to leave ends the connection. A terminal event (`terminated`) ends
    /// it for every subscriber, as in RxSwift: the next subscriber connects anew.
    func leave(_ sink: MulticastRefCountSink<Source, Subject>, terminated: Bool) {
        let mustDrain = connectable.lock.locked { () -> Bool in
            guard let generation = sink.countedGeneration else { return false }
            sink.countedGeneration = nil
            guard generation == countedGeneration else { return false }
            count = terminated ? 0 : count - 1
            guard count == 0 else { return false }
            countedGeneration = nil
            guard let ended = connectable.detachLocked(generation: generation) else { return false }
            return enqueueLocked(.disconnect(ended))
        }
        if mustDrain { drain() }
    }

    /// Queues a call out to the source; returns whether the caller must drain. Under the lock.
    private func enqueueLocked(_ operation: Operation) -> Bool {
        pending.append(operation)
        if draining { return false }
        draining = true
        return true
    }

    /// Performs the queued operations, in order, outside the lock.
    private func drain() {
        while let operation = connectable.lock.locked({ nextOperationLocked() }) {
            switch operation {
            case .connect(let generation):
                connectable.connect(generation: generation) { countedGeneration == generation && count > 0 }
            case .disconnect(let connection):
                connection.dispose()
            }
        }
    }

    private func nextOperationLocked() -> Operation? {
        if pending.isEmpty {
            draining = false
            return nil
        }
        return pending.removeFirst()
    }
}

/// One subscriber of ``MulticastRefCountObservable``: forwards the subject's events; leaving (or the
/// connection terminating) updates the parent's count.
final class MulticastRefCountSink<Source, Subject: SubjectType>: OperatorSink<Subject.Element, Subject.Element>,
    @unchecked Sendable
where Subject.Observer.Element == Source {
    private let parent: MulticastRefCountObservable<Source, Subject>
    /// The connectable's generation this sink counts in, or `nil` if it does not count; under the
    /// connectable's lock.
    @exclusivity(unchecked) var countedGeneration: UInt?

    init(parent: MulticastRefCountObservable<Source, Subject>, downstream: Sink<Subject.Element>) {
        self.parent = parent
        super.init(downstream: downstream)
    }

    override func next(_ element: Subject.Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        parent.leave(self, terminated: true)
        forwardTermination(termination)
    }

    override func disposeResources() {
        parent.leave(self, terminated: false)
    }
}
