import Synchronization

/// `refCount()` of the connectables made by `multicast`, `publish` and `replay`. Which subject a
/// subscriber joins and which connection it counts in are decided in one critical section under the
/// connectable's lock, so a subscriber either joins a connection before it ends or starts the next
/// one. Connecting and disconnecting call out to the source: queued under the lock, performed after
/// unlocking in order by one thread at a time, nested when queued from inside one of them (as
/// RxSwift's recursive lock does). The subscribers hold the count (``MulticastRefCountState``).
///
/// Thread-safety: the count's state and each sink's `countedGeneration` are guarded by the
/// connectable's lock.
final class MulticastRefCountObservable<Source, Subject: SubjectType>: Observable<Subject.Element>,
    @unchecked Sendable
where Subject.Observer.Element == Source {
    typealias Element = Subject.Element

    let connectable: MulticastConnectable<Source, Subject>
    private let counter: MulticastRefCountState<Source, Subject>

    init(connectable: MulticastConnectable<Source, Subject>) {
        self.connectable = connectable
        counter = MulticastRefCountState(shared: connectable.state)
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = MulticastRefCountSink(counter: counter, downstream: downstream)
        let (subject, generation, connects) = join(sink)
        sink.setUpstream(subject.asObservable().subscribe(sink: sink))
        // Joined before the source let go of the connection, but perhaps subscribed to the subject
        // after the subject let go of its observers: nothing will send to it for this generation.
        if !connects, connectable.state.lock.locked({ connectable.state.sourceGoneGeneration == generation }) {
            sink.sourceGone()
        }
        // Asked for after subscribing, so what the source sends as it connects reaches the subscriber; not
        // made if the subscriber has left meanwhile.
        var gate: ThrottleGate?
        if connects,
            connectable.state.lock.locked({ counter.enqueueLocked(.connect(generation, connectable), gate: &gate) })
        {
            counter.drain()
        }
        gate?.wait()
        return sink.asDisposable
    }

    /// Counts `sink` in the current connection; returns its subject (made outside the lock if none), its
    /// generation, and whether the sink is the first to count in it.
    private func join(_ sink: MulticastRefCountSink<Source, Subject>) -> (Subject, UInt, Bool) {
        var made: Subject?
        while true {
            let joined = connectable.state.lock.locked { () -> (Subject, UInt, Bool)? in
                guard let subject = connectable.currentSubjectLocked(installing: made) else { return nil }
                let generation = connectable.state.generation
                let first = counter.countInLocked(sink, generation: generation)
                return (subject, generation, first)
            }
            if let joined { return joined }
            made = connectable.makeSubject()
        }
    }
}

/// The count of a ``MulticastRefCountObservable``, held by its subscribers, and the calls out to the
/// source it queues.
///
/// Thread-safety: everything is guarded by the connectable's lock (`shared.lock`).
final class MulticastRefCountState<Source, Subject: SubjectType>: @unchecked Sendable
where Subject.Observer.Element == Source {
    enum Operation {
        /// Connect the subject of this generation, if it still has subscribers.
        case connect(UInt, MulticastConnectable<Source, Subject>)
        case disconnect(MulticastConnection<Source>)
    }

    let shared: MulticastState<Source, Subject>
    /// Subscribers counted in the connection of `countedGeneration`.
    @exclusivity(unchecked) private var count = 0
    /// The connectable's generation the count is for; `nil` when nobody counts.
    @exclusivity(unchecked) private var countedGeneration: UInt?
    /// Claimed with the draining thread's id, so a nested drain is told apart from another thread.
    @exclusivity(unchecked) private var pending = DrainQueue<Operation>()
    /// How many drains the draining thread has nested inside its calls out.
    @exclusivity(unchecked) private var nestedDrains = 0

    init(shared: MulticastState<Source, Subject>) {
        self.shared = shared
    }

    /// Counts `sink` in the connection of `generation`; returns whether it is the first.
    func countInLocked(_ sink: MulticastRefCountSink<Source, Subject>, generation: UInt) -> Bool {
        if countedGeneration != generation {
            // The counted connection has ended (its source terminated): start the next one.
            countedGeneration = generation
            count = 0
        }
        count += 1
        sink.countedGeneration = generation
        return count == 1
    }

    /// `sink` leaves: the last one ends the connection. A terminal event ends it for everyone, as in
    /// RxSwift.
    func leave(_ sink: MulticastRefCountSink<Source, Subject>, terminated: Bool) {
        var gate: ThrottleGate?
        let mustDrain = shared.lock.locked { () -> Bool in
            guard let generation = sink.countedGeneration else { return false }
            sink.countedGeneration = nil
            guard generation == countedGeneration else { return false }
            count = terminated ? 0 : count - 1
            guard count == 0 else { return false }
            countedGeneration = nil
            guard let ended = shared.detachLocked(generation: generation) else { return false }
            return enqueueLocked(.disconnect(ended), gate: &gate)
        }
        if mustDrain { drain() }
        gate?.wait()
    }

    /// Queues a call out to the source; returns whether the caller drains: the first to find nobody
    /// draining, or the draining thread itself inside a call out (a nested drain).
    func enqueueLocked(_ operation: Operation, gate: inout ThrottleGate?) -> Bool {
        let thread = currentThreadID()
        if pending.enqueueLocked(operation, by: thread, gate: &gate) { return true }
        guard pending.holder == thread else { return false }
        nestedDrains += 1
        return true
    }

    private func nextLocked(wakeUp: inout ThrottleWakeUp?) -> Operation? {
        guard nestedDrains == 0 else {
            if let operation = pending.nextNestedLocked() { return operation }
            nestedDrains -= 1
            return nil
        }
        return pending.nextLocked(wakeUp: &wakeUp)
    }

    func drain() {
        RxSwift.drain(next: { wakeUp in shared.lock.locked { nextLocked(wakeUp: &wakeUp) } }) { operation in
            switch operation {
            case .connect(let generation, let connectable):
                connectable.connect(generation: generation) { countedGeneration == generation && count > 0 }
            case .disconnect(let connection):
                connection.dispose()
            }
        }
    }
}

/// One subscriber of ``MulticastRefCountObservable``; leaving or termination updates the count.
final class MulticastRefCountSink<Source, Subject: SubjectType>: OperatorSink<Subject.Element, Subject.Element>,
    @unchecked Sendable
where Subject.Observer.Element == Source {
    private let counter: MulticastRefCountState<Source, Subject>
    @exclusivity(unchecked) var countedGeneration: UInt?

    init(counter: MulticastRefCountState<Source, Subject>, downstream: Sink<Subject.Element>) {
        self.counter = counter
        super.init(downstream: downstream)
    }

    override var releasesWithItsSource: Bool { true }

    override func next(_ element: Subject.Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        counter.leave(self, terminated: true)
        forwardTermination(termination)
    }

    override func disposeResources() {
        counter.leave(self, terminated: false)
    }
}
