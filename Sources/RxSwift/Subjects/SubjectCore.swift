import Synchronization

/// What distinguishes one subject from another: what it remembers of the elements it accepts and
/// what it replays to a new subscriber.
protocol SubjectPolicy {
    associatedtype Element

    /// Whether accepted elements are delivered at once (`AsyncSubject` holds them back).
    static var deliversElements: Bool { get }

    /// Whether ``accept(_:)`` and ``release()`` do anything. `PublishSubject`'s policy is empty, and a
    /// mutating access to an empty stored property is reported by the thread sanitizer at the
    /// object's own address, where it collides with unrelated accesses; so it is never mutated.
    static var remembersElements: Bool { get }

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
    static var remembersElements: Bool { true }
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
/// The uncontended path of `next` touches only concrete types (the observer array, `Bool`s, the
/// non-generic `Termination`) and takes the lock twice, so it needs no generic metadata at run time
/// and allocates nothing (DESIGN §3); generic payloads are only queued when a delivery is under way.
/// The observer array is never mutated in place: a snapshot handed to an emitting thread stays valid
/// and unshared with writers.
///
/// Thread-safety: every stored `var` is guarded by `lock` (hence `@exclusivity(unchecked)`: the lock
/// already serializes them, and the dynamic checks would cost more than the rest of an emission).
final class SubjectCore<Policy: SubjectPolicy>: SubjectCoreBase, @unchecked Sendable {
    typealias Element = Policy.Element

    private enum Pending {
        case next(Element)
        case terminate(Termination)
        case add(SubjectObserver, replay: [Element])
    }

    private enum SubscribeAction {
        case none
        case replay([Element])
        case stopped([Element], Termination)
    }

    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var policy: Policy
    @exclusivity(unchecked) private var observers: ContiguousArray<SubjectObserver> = []
    @exclusivity(unchecked) private var stopped: Termination?
    @exclusivity(unchecked) private var disposed = false
    @exclusivity(unchecked) private var emitting = false
    // Kept beside the queue so that the hot path never asks the generic queue whether it is empty.
    @exclusivity(unchecked) private var pendingCount = 0
    @exclusivity(unchecked) private var pending = Queue<Pending>()
    /// Observers disposed while a delivery was under way: their sinks are released when the emitting
    /// token is given back, because the delivering thread may still be reading them.
    @exclusivity(unchecked) private var retired: ContiguousArray<SubjectObserver> = []

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
        // Optional rather than an empty array: that would cost a retain and release of the shared
        // empty storage on every element.
        var snapshot: ContiguousArray<SubjectObserver>?
        let deliver = lock.locked { () -> Bool in
            if disposed || stopped != nil { return false }
            if Policy.remembersElements { policy.accept(element) }
            if !Policy.deliversElements { return false }
            if emitting {
                enqueueNextLocked(element)
                return false
            }
            emitting = true
            snapshot = observers
            return true
        }
        guard deliver, let snapshot else { return }
        for observer in snapshot where !observer.isDisposed {
            observer.withSink(of: Element.self) { $0.next(element) }
        }
        finishEmitting()
    }

    func terminate(_ termination: Termination) {
        var snapshot: ContiguousArray<SubjectObserver> = []
        var elements: [Element] = []
        let deliver = lock.locked { () -> Bool in
            if disposed || stopped != nil { return false }
            stopped = termination
            if emitting {
                enqueueLocked(.terminate(termination))
                return false
            }
            emitting = true
            snapshot = observers
            observers = []
            elements = policy.elementsBefore(termination)
            return true
        }
        guard deliver else { return }
        self.deliver(termination, after: elements, to: snapshot)
        finishEmitting()
    }

    /// Subscribes `sink`. A stopped or disposed subject delivers its replay and terminal event (or
    /// `RxError.disposed`) at once and returns an empty disposable.
    func subscribe(_ sink: Sink<Element>, owner: AnyObject) -> Disposable {
        let observer = SubjectObserver(sink: sink, core: self)
        let action: SubscribeAction = lock.locked {
            if disposed { return .stopped([], .error(RxError.disposed(object: owner))) }
            let replay = policy.replay(stopped: stopped)
            if let stopped { return .stopped(replay, stopped) }
            if emitting {
                // Another delivery is under way: the sink joins in queue order, so it receives its
                // replay and then exactly what is queued after it.
                enqueueLocked(.add(observer, replay: replay))
                return .none
            }
            observers = observers.appending(observer)
            if replay.isEmpty { return .none }
            emitting = true
            return .replay(replay)
        }
        switch action {
        case .none:
            return observer
        case .replay(let replay):
            for element in replay where !observer.isDisposed { sink.next(element) }
            finishEmitting()
            return observer
        case .stopped(let replay, let termination):
            for element in replay { sink.next(element) }
            sink.terminate(termination)
            return Disposables.create()
        }
    }

    override func unsubscribe(_ observer: SubjectObserver) {
        // An observer still queued for addition has no entry yet; `drain` skips it because its
        // disposed flag is set.
        let released: AnySink? = lock.locked {
            observers = observers.removing(observer)
            return retireLocked(observer)
        }
        // The sink (and whatever its closures hold) is released here, after unlocking.
        withExtendedLifetime(released) {}
    }

    /// Releases every observer; later events are ignored and later subscribers get `RxError.disposed`.
    func dispose() {
        let released: [AnySink?] = lock.locked {
            disposed = true
            let all = observers
            observers = []
            pending.removeAll()
            pendingCount = 0
            if Policy.remembersElements { policy.release() }
            return all.map { retireLocked($0) }
        }
        withExtendedLifetime(released) {}
    }

    /// Takes the sink out of a disposed observer, or, while a delivery is under way (which may be
    /// reading it), leaves that to ``releaseTokenLocked()``.
    private func retireLocked(_ observer: SubjectObserver) -> AnySink? {
        if emitting {
            retired.append(observer)
            return nil
        }
        return observer.takeSinkLocked()
    }

    /// Gives the emitting token back; returns the sinks of observers retired meanwhile, to be released
    /// after unlocking.
    private func releaseTokenLocked() -> [AnySink?] {
        emitting = false
        if retired.isEmpty { return [] }
        defer { retired = [] }
        return retired.map { $0.takeSinkLocked() }
    }

    private func enqueueLocked(_ item: Pending) {
        pending.enqueue(item)
        pendingCount += 1
    }

    /// Out of line so that the hot path of `next` does not fetch the generic `Pending` metadata
    /// (the compiler hoists such fetches to the entry of the function that builds the value).
    @inline(never)
    private func enqueueNextLocked(_ element: Element) {
        enqueueLocked(.next(element))
    }

    private func deliver(
        _ termination: Termination, after elements: [Element], to observers: ContiguousArray<SubjectObserver>
    ) {
        for element in elements {
            for observer in observers where !observer.isDisposed {
                observer.withSink(of: Element.self) { $0.next(element) }
            }
        }
        for observer in observers where !observer.isDisposed {
            observer.withSink(of: Element.self) { $0.terminate(termination) }
        }
    }

    /// Gives the emitting token back, unless something was queued meanwhile: then delivers that first.
    private func finishEmitting() {
        var released: [AnySink?] = []
        let more = lock.locked { () -> Bool in
            if pendingCount > 0 { return true }
            released = releaseTokenLocked()
            return false
        }
        if more { drain() }
        withExtendedLifetime(released) {}
    }

    /// Delivers what was queued while this thread held the emitting token, then gives the token back.
    private func drain() {
        while true {
            var work: Pending?
            var snapshot: ContiguousArray<SubjectObserver> = []
            var elements: [Element] = []
            var released: [AnySink?] = []
            lock.locked {
                while let item = pending.dequeue() {
                    pendingCount -= 1
                    switch item {
                    case .next:
                        snapshot = observers
                        work = item
                        return
                    case .terminate(let termination):
                        snapshot = observers
                        observers = []
                        elements = policy.elementsBefore(termination)
                        work = item
                        return
                    case .add(let observer, let replay):
                        if observer.isDisposed { continue }
                        observers = observers.appending(observer)
                        if !replay.isEmpty {
                            work = item
                            return
                        }
                    }
                }
                released = releaseTokenLocked()
            }
            switch work {
            case .none:
                withExtendedLifetime(released) {}
                return
            case .next(let element):
                for observer in snapshot where !observer.isDisposed {
                    observer.withSink(of: Element.self) { $0.next(element) }
                }
            case .terminate(let termination):
                deliver(termination, after: elements, to: snapshot)
            case .add(let observer, let replay):
                for element in replay where !observer.isDisposed {
                    observer.withSink(of: Element.self) { $0.next(element) }
                }
            }
        }
    }
}

/// The non-generic face of a subject's core, so that a subscription can unsubscribe without being
/// generic itself.
class SubjectCoreBase {
    func unsubscribe(_ observer: SubjectObserver) {
        rxAbstractMethod()
    }
}

/// One subscription to a subject: the observer's entry in the subject's array, and the disposable
/// handed to the subscriber. Not generic, so that the array is of a concrete type.
///
/// It holds the core weakly: the core's array holds the entry, and a strong reference back would
/// keep a dropped subject and its observers alive until every subscription is disposed.
///
/// Disposing it releases the sink (and so the subscriber's closures), as RxSwift does, even while the
/// disposable itself is kept.
///
/// Thread-safety: `disposed` is atomic and `core` immutable. `sink` is read only by the thread that
/// holds the core's emitting token, and cleared only under the core's lock when no token is held.
final class SubjectObserver: Disposable, @unchecked Sendable {
    @exclusivity(unchecked) private var sink: AnySink?
    private weak let core: SubjectCoreBase?
    private let disposed = Atomic<Bool>(false)

    init(sink: AnySink, core: SubjectCoreBase) {
        self.sink = sink
        self.core = core
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Calls `body` with the sink, typed again (it was created as a `Sink<Element>` by the core of the
    /// same `Element`), without retaining it: the entry keeps it alive, and the caller holds the entry.
    @inline(__always)
    func withSink<Element>(of _: Element.Type, _ body: (Sink<Element>) -> Void) {
        guard let sink else { return }
        Unmanaged.passUnretained(unsafeDowncast(sink, to: Sink<Element>.self))._withUnsafeGuaranteedRef(body)
    }

    /// Clears the sink and returns it, so that the caller releases it after unlocking.
    func takeSinkLocked() -> AnySink? {
        defer { sink = nil }
        return sink
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core?.unsubscribe(self)
    }
}

extension ContiguousArray where Element == SubjectObserver {
    /// A new array with `observer` appended (the receiver's storage is left untouched).
    func appending(_ observer: SubjectObserver) -> Self {
        var grown = Self()
        grown.reserveCapacity(count + 1)
        grown.append(contentsOf: self)
        grown.append(observer)
        return grown
    }

    /// A new array without `observer` (the receiver itself when it does not hold it).
    func removing(_ observer: SubjectObserver) -> Self {
        guard let index = firstIndex(where: { $0 === observer }) else { return self }
        var shrunk = Self()
        shrunk.reserveCapacity(count - 1)
        shrunk.append(contentsOf: self[..<index])
        shrunk.append(contentsOf: self[(index + 1)...])
        return shrunk
    }
}
