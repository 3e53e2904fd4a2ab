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

    /// Drops what the policy remembers, when the subject is disposed.
    mutating func release()
}

extension SubjectPolicy {
    mutating func release() {}
}

/// The shared engine of the subjects: observers, terminal state, and a drain-loop serializer.
///
/// The first thread to emit takes the emitting token and delivers; events that arrive meanwhile,
/// from other threads or re-entrantly from an observer, are queued and delivered by the token holder
/// in order, after the current event reached every observer. No lock is held while observers run,
/// nothing blocks, and every observer sees the same order (DESIGN §4).
///
/// Delivery checks each subscription's disposed flag, so an observer unsubscribed from inside
/// another observer's `onNext` does not receive the rest of that event (RxSwift would deliver it).
///
/// Thread-safety: every stored property is guarded by `lock`.
final class SubjectCore<Policy: SubjectPolicy>: @unchecked Sendable {
    typealias Element = Policy.Element
    typealias Subscription = SubjectSubscription<Policy>

    /// An entry of the observer bag. The subscription does not hold the sink, so a disposed
    /// subscription kept alive by its owner does not keep the observer alive.
    struct Observer {
        let sink: Sink<Element>
        let subscription: Subscription

        func next(_ element: Element) {
            if !subscription.isDisposed { sink.next(element) }
        }

        func terminate(_ termination: Termination) {
            if !subscription.isDisposed { sink.terminate(termination) }
        }
    }

    private enum Pending {
        case next(Element)
        case terminate(Termination)
        case add(Observer, replay: [Element])
    }

    private enum SubscribeAction {
        case none
        case replay([Element])
        case stopped([Element], Termination)
    }

    private enum DrainWork {
        case next(Element, Bag<Observer>)
        case terminate(Termination, [Element], Bag<Observer>)
        case add(Observer, [Element])
    }

    private let lock = Mutex<Void>(())
    private var policy: Policy
    private var observers = Bag<Observer>()
    private var stopped: Termination?
    private var disposed = false
    private var emitting = false
    private var pending = Queue<Pending>()

    init(policy: Policy) {
        self.policy = policy
    }

    var hasObservers: Bool { lock.locked { !observers.isEmpty } }
    var isDisposed: Bool { lock.locked { disposed } }

    /// Reads the whole state at once under the lock.
    func withState<Result>(_ body: (Policy, Termination?, _ disposed: Bool) -> Result) -> Result {
        lock.locked { body(policy, stopped, disposed) }
    }

    func next(_ element: Element) {
        let snapshot: Bag<Observer>? = lock.locked {
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
        let snapshot: (Bag<Observer>, [Element])? = lock.locked {
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

    /// Subscribes `sink`. A stopped or disposed subject delivers its replay and terminal event (or
    /// `RxError.disposed`) at once and returns an empty disposable.
    func subscribe(_ sink: Sink<Element>, owner: AnyObject) -> Disposable {
        let subscription = Subscription(core: self)
        let observer = Observer(sink: sink, subscription: subscription)
        let action: SubscribeAction = lock.locked {
            if disposed { return .stopped([], .error(RxError.disposed(object: owner))) }
            let replay = policy.replay(stopped: stopped)
            if let stopped { return .stopped(replay, stopped) }
            let key = observers.makeKey()
            subscription.key = key
            if emitting {
                // Another delivery is under way: the sink joins in queue order, so it receives its
                // replay and then exactly what is queued after it.
                pending.enqueue(.add(observer, replay: replay))
                return .none
            }
            observers.insert(observer, for: key)
            if replay.isEmpty { return .none }
            emitting = true
            return .replay(replay)
        }
        switch action {
        case .none:
            return subscription
        case .replay(let replay):
            for element in replay { observer.next(element) }
            drain()
            return subscription
        case .stopped(let replay, let termination):
            for element in replay { sink.next(element) }
            sink.terminate(termination)
            return Disposables.create()
        }
    }

    func unsubscribe(_ subscription: Subscription) {
        lock.locked {
            // A subscription still queued for addition has no entry yet; `drain` skips it because its
            // disposed flag is set.
            if let key = subscription.key { observers.removeKey(key) }
        }
    }

    /// Releases every observer; later events are ignored and later subscribers get `RxError.disposed`.
    func dispose() {
        lock.locked {
            disposed = true
            observers.removeAll()
            pending.removeAll()
            policy.release()
        }
    }

    private func deliver(_ termination: Termination, after elements: [Element], to observers: Bag<Observer>) {
        for element in elements {
            observers.forEach { $0.next(element) }
        }
        observers.forEach { $0.terminate(termination) }
    }

    /// Delivers what was queued while this thread held the emitting token, then releases it.
    private func drain() {
        while true {
            let work: DrainWork? = lock.locked {
                while let item = pending.dequeue() {
                    switch item {
                    case .next(let element):
                        return .next(element, observers)
                    case .terminate(let termination):
                        defer { observers.removeAll() }
                        return .terminate(termination, policy.elementsBefore(termination), observers)
                    case .add(let observer, let replay):
                        guard !observer.subscription.isDisposed, let key = observer.subscription.key else { continue }
                        observers.insert(observer, for: key)
                        if !replay.isEmpty { return .add(observer, replay) }
                    }
                }
                emitting = false
                return nil
            }
            guard let work else { return }
            switch work {
            case .next(let element, let observers):
                observers.forEach { $0.next(element) }
            case .terminate(let termination, let elements, let observers):
                deliver(termination, after: elements, to: observers)
            case .add(let observer, let replay):
                for element in replay { observer.next(element) }
            }
        }
    }
}

/// The disposable of one subscription to a subject.
///
/// It holds the core weakly: the core's observer bag holds the subscription, and a strong reference
/// back would keep a dropped subject and its observers alive until every subscription is disposed.
///
/// Thread-safety: `disposed` is atomic; `key` is written and read only under the core's lock.
final class SubjectSubscription<Policy: SubjectPolicy>: Disposable, @unchecked Sendable {
    private weak let core: SubjectCore<Policy>?
    private let disposed = Atomic<Bool>(false)
    var key: BagKey?

    init(core: SubjectCore<Policy>) {
        self.core = core
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core?.unsubscribe(self)
    }
}
