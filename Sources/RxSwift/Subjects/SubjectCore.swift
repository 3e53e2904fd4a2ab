import Synchronization

/// What distinguishes one subject from another: what it remembers of the elements it accepts and
/// what it replays to a new subscriber.
protocol SubjectPolicy {
    associatedtype Element

    /// Whether accepted elements are delivered at once (`AsyncSubject` holds them back).
    static var deliversElements: Bool { get }

    /// Remembers an accepted element.
    mutating func accept(_ element: Element)

    /// The elements a new subscriber receives first; `stopped` is the terminal event if there was one.
    func replay(stopped: Termination?) -> [Element]

    /// The elements delivered to every observer just before `termination`.
    func elementsBefore(_ termination: Termination) -> [Element]
}

/// The shared engine of the subjects: observers, terminal state, and a drain-loop serializer.
///
/// The first thread to emit takes the emitting token and delivers; events that arrive meanwhile,
/// from other threads or re-entrantly from an observer, are queued and delivered by the token holder
/// in order, after the current event reached every observer. No lock is held while observers run,
/// nothing blocks, and every observer sees the same order (DESIGN §4).
///
/// Thread-safety: every stored property is guarded by `lock`.
final class SubjectCore<Policy: SubjectPolicy>: @unchecked Sendable {
    typealias Element = Policy.Element

    private enum Pending {
        case next(Element)
        case terminate(Termination)
        case add(BagKey, Sink<Element>, replay: [Element])
    }

    private enum SubscribeAction {
        case deliver([Element], Termination?, BagKey?)
        case queued(BagKey)
    }
    private enum DrainWork {
        case next(Element, Bag<Sink<Element>>)
        case terminate(Termination, [Element], Bag<Sink<Element>>)
        case add(Sink<Element>, [Element])
    }
    private let lock = Mutex<Void>(())
    private var policy: Policy
    private var observers = Bag<Sink<Element>>()
    private(set) var stopped: Termination?
    private var disposed = false
    private var emitting = false
    private var pending = Queue<Pending>()

    init(policy: Policy) {
        self.policy = policy
    }

    var hasObservers: Bool { lock.locked { !observers.isEmpty } }
    var isDisposed: Bool { lock.locked { disposed } }
    var stoppedEvent: Termination? { lock.locked { stopped } }

    /// Reads the policy's state under the lock.
    func withPolicy<Result>(_ body: (Policy) -> Result) -> Result {
        lock.locked { body(policy) }
    }

    func next(_ element: Element) {
        let snapshot: Bag<Sink<Element>>? = lock.locked {
            if disposed || stopped != nil { return nil }
            policy.accept(element)
            if !Policy.deliversElements { return nil }
            if emitting {
                pending.enqueue(.next(element))
                return nil
            }
            emitting = true
            return observers
        }
        guard let snapshot else { return }
        snapshot.forEach { $0.next(element) }
        drain()
    }

    func terminate(_ termination: Termination) {
        let snapshot: (Bag<Sink<Element>>, [Element])? = lock.locked {
            if disposed || stopped != nil { return nil }
            stopped = termination
            if emitting {
                pending.enqueue(.terminate(termination))
                return nil
            }
            emitting = true
            defer { observers.removeAll() }
            return (observers, policy.elementsBefore(termination))
        }
        guard let (observers, elements) = snapshot else { return }
        deliver(termination, after: elements, to: observers)
        drain()
    }

    /// Subscribes `sink`; returns the key to unsubscribe with, or `nil` when the subject had stopped
    /// (the sink then already received the replay and the terminal event).
    func subscribe(_ sink: Sink<Element>, owner: AnyObject) -> BagKey? {
        let action: SubscribeAction = lock.locked {
            if disposed { return .deliver([], .error(RxError.disposed(object: owner)), nil) }
            let replay = policy.replay(stopped: stopped)
            if let stopped { return .deliver(replay, stopped, nil) }
            let key = observers.makeKey()
            if emitting {
                // Another delivery is under way: the sink joins in queue order, so it receives its
                // replay and then exactly what is queued after it.
                pending.enqueue(.add(key, sink, replay: replay))
                return .queued(key)
            }
            observers.insert(sink, for: key)
            if replay.isEmpty { return .deliver([], nil, key) }
            emitting = true
            return .deliver(replay, nil, key)
        }
        switch action {
        case .queued(let key):
            return key
        case .deliver(let replay, let stopped, let key):
            if let stopped {
                for element in replay { sink.next(element) }
                sink.terminate(stopped)
                return nil
            }
            if !replay.isEmpty {
                for element in replay { sink.next(element) }
                drain()
            }
            return key
        }
    }

    func unsubscribe(_ key: BagKey) {
        lock.locked {
            if observers.removeKey(key) == nil {
                // Still queued for addition: drop the queued add.
                var kept = Queue<Pending>()
                while let item = pending.dequeue() {
                    if case .add(let queuedKey, _, _) = item, queuedKey == key { continue }
                    kept.enqueue(item)
                }
                pending = kept
            }
        }
    }

    /// Releases every observer; later events are ignored and later subscribers get `RxError.disposed`.
    func dispose() {
        lock.locked {
            disposed = true
            observers.removeAll()
            pending.removeAll()
        }
    }

    private func deliver(_ termination: Termination, after elements: [Element], to observers: Bag<Sink<Element>>) {
        observers.forEach { observer in
            for element in elements { observer.next(element) }
            observer.terminate(termination)
        }
    }

    /// Delivers what was queued while this thread held the emitting token, then releases it.
    private func drain() {
        while true {
            let work: DrainWork? = lock.locked {
                guard let item = pending.dequeue() else {
                    emitting = false
                    return nil
                }
                switch item {
                case .next(let element):
                    return .next(element, observers)
                case .terminate(let termination):
                    defer { observers.removeAll() }
                    return .terminate(termination, policy.elementsBefore(termination), observers)
                case .add(let key, let sink, let replay):
                    observers.insert(sink, for: key)
                    return .add(sink, replay)
                }
            }
            guard let work else { return }
            switch work {
            case .next(let element, let observers):
                observers.forEach { $0.next(element) }
            case .terminate(let termination, let elements, let observers):
                deliver(termination, after: elements, to: observers)
            case .add(let sink, let replay):
                for element in replay { sink.next(element) }
            }
        }
    }
}

/// The disposable of one subscription to a subject.
final class SubjectSubscription<Policy: SubjectPolicy>: Disposable, @unchecked Sendable {
    private let core: SubjectCore<Policy>
    private let key: BagKey
    private let disposed = Atomic<Bool>(false)

    init(core: SubjectCore<Policy>, key: BagKey) {
        self.core = core
        self.key = key
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.unsubscribe(key)
    }
}
