import Synchronization

/// The shared engine of the subjects: a drain-loop serializer (DESIGN §4).
///
/// Whoever raises `workInProgress` from 0 holds the *emitting token* and delivers; events that
/// arrive meanwhile, from other threads or re-entrantly from an observer, are queued and counted, and
/// the token holder delivers them in order before it gives the token back. Nothing blocks, no lock is
/// held while observers run, and every observer sees the same order.
///
/// Two kinds of state:
/// - *accepted* state (`policy`, `acceptedStop`, `disposed`, the queue) changes when an event is
///   accepted, under `lock`; it decides what is dropped and what a new subscriber is replayed;
/// - *delivery* state (the observer array, `deliveredStop`) belongs to the token holder alone, and
///   is handed from one holder to the next by the acquire/release operations on `workInProgress`.
///
/// `PublishSubject`'s elements take the fast path: one compare-and-swap to take the token, delivery
/// to the array the token holder owns (no copy, no lock, no generic metadata), one atomic decrement
/// to give it back (DESIGN §3). Everything else goes through the queue.
///
/// Delivery checks each subscription's disposed flag, so an observer unsubscribed from inside
/// another observer's `onNext` does not receive the rest of that event (RxSwift would deliver it).
///
/// Thread-safety: accepted state is guarded by `lock`, delivery state by the emitting token (hence
/// `@exclusivity(unchecked)` on both: the dynamic checks would cost more than an emission);
/// `workInProgress`, `isDisposedFlag` and `observerCount` are atomics.
final class SubjectCore<Policy: SubjectPolicy>: SubjectCoreBase, @unchecked Sendable {
    typealias Element = Policy.Element

    enum Pending {
        case next(Element)
        case terminate(Termination, elementsBefore: [Element])
        case add(SubjectObserver, replay: [Element])
        case remove(SubjectObserver)
        case dispose
    }

    private let workInProgress = Atomic<Int>(0)
    private let isDisposedFlag = Atomic<Bool>(false)
    private let observerCount = Atomic<Int>(0)

    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var policy: Policy
    @exclusivity(unchecked) private var acceptedStop: Termination?
    @exclusivity(unchecked) private var pending = Queue<Pending>()

    @exclusivity(unchecked) private var observers: ContiguousArray<SubjectObserver> = []
    @exclusivity(unchecked) private var deliveredStop = false

    /// The core lives exactly as long as its subject, so it is what counts the subject as a live
    /// resource (debug builds).
    init(policy: Policy) {
        self.policy = policy
        #if DEBUG
            Resources.incrementTotal()
        #endif
    }

    #if DEBUG
        deinit {
            Resources.decrementTotal()
        }
    #endif

    /// Delivers a public `Event` through the split interface.
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): next(element)
        case .error(let error): terminate(.error(error))
        case .completed: terminate(.completed)
        }
    }

    var hasObservers: Bool { observerCount.load(ordering: .acquiring) > 0 }
    var isDisposed: Bool { isDisposedFlag.load(ordering: .acquiring) }

    /// Reads the accepted state at once under the lock.
    func withState<Result>(_ body: (Policy, Termination?, _ disposed: Bool) -> Result) -> Result {
        lock.locked { body(policy, acceptedStop, isDisposed) }
    }

    func next(_ element: Element) {
        if !Policy.remembersElements && Policy.deliversElements {
            if tryTakeToken() {
                deliverOwned(element)
                giveTokenBack()
            } else {
                enqueueNext(element)
            }
            return
        }
        acceptNext(element)
    }

    /// The path of the subjects that remember elements; out of line like ``enqueueNext(_:)``.
    @inline(never)
    private func acceptNext(_ element: Element) {
        let (path, replaced): (SubjectNextPath, Element?) = lock.locked {
            if isDisposed || acceptedStop != nil { return (.dropped, nil) }
            let replaced = policy.accept(element)
            if !Policy.deliversElements { return (.dropped, replaced) }
            if tryTakeToken() { return (.token, replaced) }
            pending.enqueue(.next(element))
            return (.queued, replaced)
        }
        // Released after unlocking: its deinitializer may call back into the subject.
        withExtendedLifetime(replaced) {}
        switch path {
        case .dropped:
            return
        case .token:
            deliverOwned(element)
            giveTokenBack()
        case .queued:
            signal()
        }
    }

    func terminate(_ termination: Termination) {
        let accepted: Bool = lock.locked {
            if isDisposed || acceptedStop != nil { return false }
            acceptedStop = termination
            pending.enqueue(.terminate(termination, elementsBefore: policy.elementsBefore(termination)))
            return true
        }
        if accepted { signal() }
    }

    /// Subscribes `sink`. A stopped or disposed subject delivers its replay and terminal event (or
    /// `RxError.disposed`) at once and returns an empty disposable; otherwise the sink joins in queue
    /// order, receiving its replay and then exactly the events accepted after it.
    func subscribe(_ sink: Sink<Element>, owner: AnyObject) -> Disposable {
        let observer = SubjectObserver(sink: sink, core: self)
        let stopped: ([Element], Termination)? = lock.locked {
            if isDisposed { return ([], .error(RxError.disposed(object: owner))) }
            let replay = policy.replay(stopped: acceptedStop)
            if let acceptedStop { return (replay, acceptedStop) }
            pending.enqueue(.add(observer, replay: replay))
            return nil
        }
        if let (replay, termination) = stopped {
            for element in replay { sink.next(element) }
            sink.terminate(termination)
            return Disposables.create()
        }
        signal()
        return observer
    }

    override func unsubscribe(_ observer: SubjectObserver) {
        lock.locked { pending.enqueue(.remove(observer)) }
        signal()
    }

    /// Releases every observer; later events are ignored and later subscribers get `RxError.disposed`.
    func dispose() {
        let released: (dropped: Queue<Pending>, remembered: Policy)? = lock.locked {
            if isDisposedFlag.exchange(true, ordering: .acquiringAndReleasing) { return nil }
            let dropped = pending
            pending = Queue()
            pending.enqueue(.dispose)
            let remembered = policy
            if Policy.remembersElements { policy.release() }
            return (dropped, remembered)
        }
        guard let released else { return }
        // The dropped events and the remembered elements are released after unlocking: their
        // deinitializers may call back into the subject.
        withExtendedLifetime(released) {}
        signal()
    }

    // MARK: - The emitting token

    @inline(__always)
    private func tryTakeToken() -> Bool {
        workInProgress.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// Gives the token back after a fast-path delivery, unless work was signalled meanwhile.
    @inline(__always)
    private func giveTokenBack() {
        if workInProgress.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0 {
            drain()
        }
    }

    /// Counts one queued item; the thread that raises the count from 0 takes the token and drains.
    private func signal() {
        if workInProgress.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            drain()
        }
    }

    /// Out of line so that the fast path never fetches the generic `Pending` metadata (the compiler
    /// hoists such fetches to the entry of the function that builds the value).
    @inline(never)
    private func enqueueNext(_ element: Element) {
        let accepted: Bool = lock.locked {
            if isDisposed || acceptedStop != nil { return false }
            pending.enqueue(.next(element))
            return true
        }
        if accepted { signal() }
    }

    /// Delivers queued work until the count of signals comes back to 0. The caller holds the token.
    private func drain() {
        var missed = workInProgress.load(ordering: .acquiring)
        while true {
            while let item = lock.locked({ pending.dequeue() }) {
                handle(item)
            }
            missed = workInProgress.wrappingSubtract(missed, ordering: .acquiringAndReleasing).newValue
            if missed == 0 { return }
        }
    }

    // MARK: - Delivery (token holder only)

    private func deliverOwned(_ element: Element) {
        if deliveredStop || isDisposed { return }
        // The token holder owns `observers`: nothing replaces it during this loop (re-entrant changes
        // are queued), so its storage is walked in place, without retaining the array or its entries.
        observers.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                Unmanaged.passUnretained(entries[index])._withUnsafeGuaranteedRef { observer in
                    if !observer.isDisposed { observer.withSink(of: Element.self) { $0.next(element) } }
                }
            }
        }
    }

    private func handle(_ item: Pending) {
        switch item {
        case .next(let element):
            deliverOwned(element)
        case .terminate(let termination, let elements):
            if deliveredStop || isDisposed { return }
            deliveredStop = true
            let stopped = takeAllObservers()
            for element in elements {
                for observer in stopped where !observer.isDisposed {
                    observer.withSink(of: Element.self) { $0.next(element) }
                }
            }
            for observer in stopped where !observer.isDisposed {
                observer.withSink(of: Element.self) { $0.terminate(termination) }
            }
            for observer in stopped { observer.releaseSink() }
        case .add(let observer, let replay):
            if observer.isDisposed || isDisposed {
                observer.releaseSink()
                return
            }
            observers.append(observer)
            observerCount.store(observers.count, ordering: .releasing)
            for element in replay where !observer.isDisposed {
                observer.withSink(of: Element.self) { $0.next(element) }
            }
        case .remove(let observer):
            if let index = observers.firstIndex(where: { $0 === observer }) {
                observers.remove(at: index)
                observerCount.store(observers.count, ordering: .releasing)
            }
            observer.releaseSink()
        case .dispose:
            for observer in takeAllObservers() { observer.releaseSink() }
        }
    }

    private func takeAllObservers() -> ContiguousArray<SubjectObserver> {
        defer {
            observers = []
            observerCount.store(0, ordering: .releasing)
        }
        return observers
    }
}

/// How `SubjectCore.next` proceeds after accepting an element under the lock.
private enum SubjectNextPath {
    case dropped, token, queued
}
