import Synchronization

extension ConnectableObservableType {
    /// An observable that connects the connectable source when its first subscriber arrives and
    /// disconnects when its last subscriber leaves; the next subscriber connects again.
    ///
    /// When the source terminates, the connection ends and the count restarts: the next subscriber
    /// connects anew, as in RxSwift. With `publish()` or `replay(_:)` that means a fresh subject and a
    /// new subscription to the source — a subscriber arriving after a hot source has completed sees
    /// what the source gives a late subscriber (a completed `PublishSubject` completes it at once);
    /// with `multicast(_:)`'s single subject it means that subject's replay (a terminated subject
    /// ends the subscriber at once, and nothing connects). Connecting and disconnecting happen on
    /// the subscribing or disposing thread, in order.
    ///
    /// With the connectables of `multicast`, `publish` and `replay`, concurrent subscribers are
    /// safe: a subscriber arriving while the last one leaves on another thread, or while the source
    /// terminates, either joins the ending connection before it ends (and receives its terminal
    /// event, if any) or starts the next one — never a connection that nobody will feed or end, as
    /// RxSwift's `refCount` occasionally does. With another `ConnectableObservableType`, refCount
    /// cannot see which connection a subscriber reached, and that window remains, as in RxSwift.
    ///
    /// - Returns: An observable that shares one connection among its subscribers.
    ///
    /// RxJS: `refCount()`; Combine: `autoconnect()` (which never disconnects).
    public func refCount() -> Observable<Element> {
        if let connectable = self as? ConnectableObservable<Element>, let counted = connectable.makeRefCount() {
            return counted
        }
        return RefCountObservable(source: self)
    }
}

/// The producer of `refCount()` for connectables other than ``MulticastConnectable``.
///
/// Thread-safety: `count`, `generation` and `pending` are guarded by `lock`; connects and disconnects
/// are drained after unlocking by one thread at a time, the only one touching `connection`.
/// `generation` changes when the source terminates, so subscribers of an ended connection no longer
/// count.
final class RefCountObservable<Source: ConnectableObservableType>: Observable<Source.Element>,
    @unchecked Sendable
{
    let lock = Mutex<Void>(())
    @exclusivity(unchecked) var count = 0
    @exclusivity(unchecked) var generation: UInt = 0
    /// The connects (`true`) and disconnects (`false`) to perform, in order.
    @exclusivity(unchecked) private var pending = DrainQueue<Bool>()
    @exclusivity(unchecked) private var connection: Disposable?
    private let source: Source
    private let observable: Observable<Source.Element>

    init(source: Source) {
        self.source = source
        observable = source.asObservable()
        super.init()
    }

    override func subscribe(sink downstream: Sink<Source.Element>) -> Disposable {
        let sink = RefCountSink(parent: self, downstream: downstream)
        sink.setUpstream(observable.subscribe(sink: sink))
        var gate: ThrottleGate?
        let mustDrain: Bool = lock.locked {
            // A sink that ended while subscribing (a terminated subject) does not count.
            if sink.isDisposed { return false }
            sink.countedGeneration = generation
            count += 1
            return count == 1 && enqueue(connect: true, gate: &gate)
        }
        if mustDrain { drain() }
        gate?.wait()
        return sink.asDisposable
    }

    /// Queues a connect or disconnect; returns whether the caller must drain. Under `lock`.
    func enqueue(connect: Bool, gate: inout ThrottleGate?) -> Bool {
        pending.enqueueLocked(connect, gate: &gate)
    }

    /// Performs the queued connects and disconnects, in order, outside the lock.
    func drain() {
        RxSwift.drain(next: { wakeUp in lock.locked { pending.nextLocked(wakeUp: &wakeUp) } }) { connect in
            if connect {
                connection = source.connect()
            } else {
                let ended = connection
                connection = nil
                ended?.dispose()
            }
        }
    }
}

/// One subscriber of `refCount()`: forwards the connectable's events; leaving (or the source
/// terminating) updates the parent's count.
final class RefCountSink<Source: ConnectableObservableType>: OperatorSink<Source.Element, Source.Element>,
    @unchecked Sendable
{
    private let parent: RefCountObservable<Source>
    /// The generation this sink counts in, or `nil`; under the parent's lock.
    @exclusivity(unchecked) var countedGeneration: UInt?

    init(parent: RefCountObservable<Source>, downstream: Sink<Source.Element>) {
        self.parent = parent
        super.init(downstream: downstream)
    }

    override func next(_ element: Source.Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        let parent = parent
        var gate: ThrottleGate?
        let mustDrain: Bool = parent.lock.locked {
            guard let counted = countedGeneration else { return false }
            countedGeneration = nil
            guard counted == parent.generation else { return false }
            // The connection has ended: nobody counts any more, the next subscriber reconnects.
            parent.count = 0
            parent.generation &+= 1
            return parent.enqueue(connect: false, gate: &gate)
        }
        if mustDrain { parent.drain() }
        gate?.wait()
        forwardTermination(termination)
    }

    override func disposeResources() {
        let parent = parent
        var gate: ThrottleGate?
        let mustDrain: Bool = parent.lock.locked {
            guard let counted = countedGeneration else { return false }
            countedGeneration = nil
            guard counted == parent.generation else { return false }
            parent.count -= 1
            return parent.count == 0 && parent.enqueue(connect: false, gate: &gate)
        }
        if mustDrain { parent.drain() }
        gate?.wait()
    }
}
