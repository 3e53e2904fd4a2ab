import Synchronization

/// The shared engine of the subjects: one lock for the accepted state, and a drain loop that
/// serializes the senders; late subscribers catch up on their own thread (DESIGN.md, "Who delivers").
/// Leaving and `dispose()` deliver nothing; an observer's sink is released by whoever may be calling
/// it (at once when nobody is emitting, else the emitting sender or the catching-up subscriber). The
/// deinitializer calls ``detach()`` (DESIGN.md, "Lifetime").
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

    /// Events queued behind a delivery; boxed and made on first use (DESIGN.md, "The hot path").
    final class Backlog {
        var pending = Queue<Pending>()
    }

    let isDisposedFlag = Atomic<Bool>(false)
    let observerCount = Atomic<Int>(0)
    /// Whether a throttled sender has a gate to take; read without the lock.
    let throttled = Atomic<Bool>(false)
    /// After the atomics (DESIGN.md, "Concurrency model").
    let lock = Mutex<Void>(())

    @exclusivity(unchecked) var policy: Policy
    @exclusivity(unchecked) var acceptedStop: Termination?
    @exclusivity(unchecked) var observers = ObserverList<SubjectObserver>()
    @exclusivity(unchecked) var emission = DrainLoop()
    @exclusivity(unchecked) var backlogStorage: Backlog?
    /// `backlog.pending.count`, readable without the backlog.
    @exclusivity(unchecked) var pendingCount = 0
    /// `catchUps.count`, readable without the roster.
    @exclusivity(unchecked) var catchUpCount = 0
    /// The observers catching up, made on first use.
    @exclusivity(unchecked) var catchUpsStorage: CatchUpRoster<SubjectObserver>?
    /// Unsubscribed observers whose sinks the emitting sender releases between two events.
    @exclusivity(unchecked) var retired: [SubjectObserver] = []

    /// Counts the subject as a live resource in debug builds (the core lives exactly as long as it).
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

    /// Called by the subject's deinitializer: releases the sinks of the observers nobody unsubscribed,
    /// breaking their cycles (sink → subscription → entry → sink). Nobody can be emitting then. Also
    /// called on a live subject whose only sender has gone (``ReleasableSubject``): a subscriber catching
    /// up leaves once it has received what it was owed.
    @usableFromInline
    func detach() {
        // Moved out through captured variables; a subject nobody observes touches nothing else.
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
        // Live observers are told their source is gone, so the operator sinks between subject and
        // subscriber are released too.
        for case let observer? in live {
            if observer.isDisposed { observer.releaseSink() } else { observer.releaseSinkForGood() }
        }
        for observer in released { observer.releaseSink() }
        if pendingCount > 0 { releaseQueuedObservers() }
    }

    /// Tells each subscriber still catching up that the subject let go of it (``detach()``). Out of
    /// line: rare.
    @inline(never)
    private func markCatchUpsReleasedLocked() {
        for observer in catchUps.members { observer.releasedWhileCatchingUp = true }
    }

    var catchUps: CatchUpRoster<SubjectObserver> { .inPlace(&catchUpsStorage) }

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

    /// Delivers a public `Event` through the split interface, inlined into the caller.
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
        // Released after unlocking: deinitializers may call back into the subject.
        withExtendedLifetime(released) {}
    }

    /// Takes the queued events out (the emitting sender releases the observers of a queued terminal
    /// event, which left the array when it was accepted).
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
