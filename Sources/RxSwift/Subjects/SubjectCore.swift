import Synchronization

/// The shared engine of the subjects: one lock for the accepted state, and an *emitting* flag that
/// serializes the senders (the Contracts article).
///
/// Who delivers:
/// - A sender (`next`, `terminate`) that finds no other sender emitting raises the flag and delivers
///   on its own thread, before returning, to the observers subscribed when its event was accepted
///   (a snapshot of the observer array, taken under the lock). A sender that finds the flag raised
///   (another thread, or re-entrantly from an observer) queues its event with its snapshot and
///   returns; the emitting sender delivers it before lowering the flag.
/// - `subscribe` never touches the flag. It registers the new observer as *catching up*, delivers the
///   replay (current value, buffer) on the subscribing thread, then the events accepted meanwhile
///   (which senders add to that observer's own list rather than to their snapshots), and joins the
///   observer array once the list is empty: no gap, no duplicate, no overlap, and nothing delivered
///   to anyone else.
/// - The observers are an ``ObserverList`` (shared with the share connections): subscribing
///   appends, unsubscribing leaves the observer in place, disposed (delivery skips it), both O(1)
///   amortized, and the observers receive in subscription order; a sender's snapshot is the list's
///   array itself (copy-on-write). The subscribers catching up are a ``CatchUpRoster`` (shared too).
/// - Unsubscribing and `dispose()` deliver nothing. An observer's sink (the subscriber's closures)
///   is released by whoever may be calling it: at once when no sender is emitting, by the emitting
///   sender between two events otherwise, by the subscribing thread while it catches up.
///
/// Nothing keeps itself alive: the subject's deinitializer calls ``detach()``, which releases the
/// sinks of observers nobody unsubscribed (subscription → sink → subscription is a cycle that only
/// the core can break).
///
/// The aspects are in three files: this one holds the state and the lifetime (detaching, disposing);
/// `SubjectCore+Sending.swift` the senders, the drain and the delivery; `SubjectCore+Subscribing.swift`
/// subscribing, the replay, catching up and unsubscribing.
///
/// Thread-safety: every `@exclusivity(unchecked)` property is guarded by `lock`; `isDisposedFlag` and
/// `observerCount` are atomics mirrored from it for lock-free reads. Observer sinks are called only
/// by the emitting sender (live observers) or the catching-up subscriber (its own observer).
@usableFromInline
final class SubjectCore<Policy: SubjectPolicy>: SubjectCoreBase, @unchecked Sendable {
    @usableFromInline typealias Element = Policy.Element

    /// An event accepted while another sender was emitting, with the observers it goes to.
    enum Pending {
        case next(Element, ContiguousArray<SubjectObserver?>)
        case terminate(Termination, elementsBefore: [Element], ContiguousArray<SubjectObserver?>)
    }

    /// The rarely used state whose type depends on `Element`: events queued behind a delivery.
    /// Boxed (and made on first use), so that creating, subscribing to and destroying a subject never
    /// fetch their generic metadata at run time.
    final class Backlog {
        var pending = Queue<Pending>()
    }

    let isDisposedFlag = Atomic<Bool>(false)
    let observerCount = Atomic<Int>(0)
    /// Whether a throttled sender has a gate to take (see `waitIfThrottled`); read without the lock.
    let throttled = Atomic<Bool>(false)
    /// After the atomics: the thread sanitizer reports the lock's zero-sized `Void` value at the
    /// address of the field that follows it, so that field must be one only touched under the lock.
    let lock = Mutex<Void>(())

    @exclusivity(unchecked) var policy: Policy
    @exclusivity(unchecked) var acceptedStop: Termination?
    @exclusivity(unchecked) var observers = ObserverList<SubjectObserver>()
    /// Whether a sender is emitting (the *emitting* flag), and the senders waiting for it: the
    /// drain loop.
    @exclusivity(unchecked) var emission = DrainLoop()
    @exclusivity(unchecked) var backlogStorage: Backlog?
    /// `backlog.pending.count`, readable without the backlog (the hot path tests it).
    @exclusivity(unchecked) var pendingCount = 0
    /// `catchUps.count`, readable without the roster (the senders test it).
    @exclusivity(unchecked) var catchUpCount = 0
    /// The observers catching up, made on first use (a subject nobody subscribes to late, such as
    /// every `PublishSubject`, never pays for it).
    @exclusivity(unchecked) var catchUpsStorage: CatchUpRoster<SubjectObserver>?
    /// Unsubscribed observers whose sinks the emitting sender releases between two events.
    @exclusivity(unchecked) var retired: [SubjectObserver] = []

    /// The core lives exactly as long as its subject, so it is what counts the subject as a live
    /// resource (debug builds).
    @usableFromInline
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

    /// Called by the subject's deinitializer: releases the sinks of the observers nobody
    /// unsubscribed, which breaks their cycles (sink → subscription → entry → sink) and the entries'
    /// references back to the core. Nobody can be emitting then: a sender holds the subject. Also
    /// called on a live subject whose only sender has gone (``ReleasableSubject``): a subscriber
    /// catching up meanwhile is told to let go when it has received what it was owed, rather than
    /// joining the array.
    @usableFromInline
    func detach() {
        // Moved out (not copied) through captured variables; a subject nobody observes any more (the
        // usual case at its deinitializer) touches nothing else.
        var live = ContiguousArray<SubjectObserver?>()
        var released: [SubjectObserver] = []
        lock.locked {
            if catchUpCount > 0 { markCatchUpsReleasedLocked() }
            if observers.entries.isEmpty && retired.isEmpty { return }
            live = observers.removeAll()
            swap(&released, &retired)
            // Unlisted, so that one of them disposed later is not counted as leaving the array.
            for case let observer? in live { observer.place = .unlisted }
            updateObserverCountLocked()
        }
        // Live observers are told their source is gone, so that operator sinks between the subject
        // and the subscriber, which hold one another and the subscriber's handle, are released too.
        // (Disposed entries still in the array only wait to be dropped.)
        for case let observer? in live {
            if observer.isDisposed { observer.releaseSink() } else { observer.releaseSinkForGood() }
        }
        for observer in released { observer.releaseSink() }
        if pendingCount > 0 { releaseQueuedObservers() }
    }

    /// Tells each subscriber still catching up that the subject let go of it (``detach()``): it leaves
    /// for good once it has received what it was owed, instead of joining the array. Out of line: it
    /// is rare, and `detach` runs for every subject.
    @inline(never)
    private func markCatchUpsReleasedLocked() {
        for observer in catchUps.members { observer.releasedWhileCatchingUp = true }
    }

    /// The catch-up roster, made on first use. Under the lock.
    var catchUps: CatchUpRoster<SubjectObserver> { .inPlace(&catchUpsStorage) }

    /// The backlog, made on first use. Under the lock.
    @inline(never)
    var backlog: Backlog {
        if let backlogStorage { return backlogStorage }
        let made = Backlog()
        backlogStorage = made
        return made
    }

    @inline(never)
    private func releaseQueuedObservers() {
        let queued: Backlog = lock.locked {
            let queued = backlog
            backlogStorage = nil
            pendingCount = 0
            return queued
        }
        while let item = queued.pending.dequeue() {
            if case .terminate(_, _, let stopped) = item {
                for case let observer? in stopped { observer.releaseSink() }
            }
        }
    }

    /// Delivers a public `Event` through the split interface; inlined into the caller, where the
    /// `Event` type is concrete.
    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): next(element)
        case .error(let error): terminate(.error(error))
        case .completed: terminate(.completed)
        }
    }

    override func unsubscribe(_ observer: SubjectObserver) {
        leave(observer)
    }

    @inline(__always)
    var hasObservers: Bool { observerCount.load(ordering: .acquiring) > 0 }
    @inline(__always)
    var isDisposed: Bool { isDisposedFlag.load(ordering: .acquiring) }

    /// Reads the accepted state at once under the lock.
    func withState<Result>(_ body: (Policy, Termination?, _ disposed: Bool) -> Result) -> Result {
        lock.locked { body(policy, acceptedStop, isDisposed) }
    }

    // MARK: - Disposing

    /// Releases every observer; later events are ignored and later subscribers get `RxError.disposed`.
    func dispose() {
        let released: (ContiguousArray<SubjectObserver?>, Backlog?, [AnyObject])? = lock.locked {
            if isDisposedFlag.exchange(true, ordering: .acquiringAndReleasing) { return nil }
            var taken = observers.removeAll()
            let dropped = pendingCount > 0 ? dropQueuedLocked() : nil
            // Each catching-up subscriber stops when it next looks; what was kept for it goes now.
            let droppedCatchUps = catchUpCount > 0 ? catchUps.takeAllQueues() : []
            if emission.isClaimed {
                // The emitting sender may be calling them: it releases them between two events.
                for case let observer? in taken { retired.append(observer) }
                taken = []
            }
            updateObserverCountLocked()
            return (taken, dropped, droppedCatchUps)
        }
        guard let released else { return }
        for case let observer? in released.0 { observer.releaseSink() }
        if Policy.remembersElements { releaseRememberedElements() }
        // The dropped events are released after unlocking: their deinitializers may call back into the
        // subject.
        withExtendedLifetime(released) {}
    }

    /// Takes the queued events out: those behind a delivery (the emitting sender releases the
    /// observers of a queued terminal event, which left the array when it was accepted).
    @inline(never)
    private func dropQueuedLocked() -> Backlog {
        let dropped = Backlog()
        swap(&dropped.pending, &backlog.pending)
        pendingCount = 0
        for item in dropped.pending.elements {
            if case .terminate(_, _, let stopped) = item {
                for case let observer? in stopped { retired.append(observer) }
            }
        }
        return dropped
    }

    @inline(never)
    private func releaseRememberedElements() {
        let remembered: Policy = lock.locked {
            let remembered = policy
            policy.release()
            return remembered
        }
        // Released after unlocking: their deinitializers may call back into the subject.
        withExtendedLifetime(remembered) {}
    }

    func updateObserverCountLocked() {
        observerCount.store(observers.count + catchUpCount, ordering: .releasing)
    }
}
