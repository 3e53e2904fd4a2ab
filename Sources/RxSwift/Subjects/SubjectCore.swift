import Synchronization

/// The shared engine of the subjects: one lock for the accepted state, and an *emitting* flag that
/// serializes the senders (DESIGN §4).
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
/// - Subscribing appends to the observer array; unsubscribing leaves the observer in its place,
///   disposed (delivery skips it), and counts it (the newest one, leaving while no sender walks the
///   array, is simply removed); the array is compacted, keeping the order, once more than half of
///   it has left. Both cost O(1) amortized whatever the number of observers, and
///   the observers keep receiving in subscription order. A sender's snapshot is the array itself
///   (copy-on-write): it is only copied when the array changes while a snapshot is held.
/// - Unsubscribing and `dispose()` deliver nothing. An observer's sink (the subscriber's closures)
///   is released by whoever may be calling it: at once when no sender is emitting, by the emitting
///   sender between two events otherwise, by the subscribing thread while it catches up.
///
/// Nothing keeps itself alive: the subject's deinitializer calls ``detach()``, which releases the
/// sinks of observers nobody unsubscribed (subscription → sink → subscription is a cycle that only
/// the core can break).
///
/// Thread-safety: every `@exclusivity(unchecked)` property is guarded by `lock`; `isDisposedFlag` and
/// `observerCount` are atomics mirrored from it for lock-free reads. Observer sinks are called only
/// by the emitting sender (live observers) or the catching-up subscriber (its own observer).
@usableFromInline
final class SubjectCore<Policy: SubjectPolicy>: SubjectCoreBase, @unchecked Sendable {
    @usableFromInline typealias Element = Policy.Element

    /// An event accepted while another sender was emitting, with the observers it goes to.
    enum Pending {
        case next(Element, ContiguousArray<SubjectObserver>)
        case terminate(Termination, elementsBefore: [Element], ContiguousArray<SubjectObserver>)
    }

    /// The rarely used state whose type depends on `Element`: events queued behind a delivery.
    /// Boxed (and made on first use), so that creating, subscribing to and destroying a subject never
    /// fetch their generic metadata at run time.
    final class Backlog {
        var pending = Queue<Pending>()
    }

    private let isDisposedFlag = Atomic<Bool>(false)
    private let observerCount = Atomic<Int>(0)
    /// Whether a throttled sender has a gate to take (see `waitIfThrottled`); read without the lock.
    private let throttled = Atomic<Bool>(false)
    /// After the atomics: the thread sanitizer reports the lock's zero-sized `Void` value at the
    /// address of the field that follows it, so that field must be one only touched under the lock.
    private let lock = Mutex<Void>(())

    @exclusivity(unchecked) private var policy: Policy
    @exclusivity(unchecked) private var acceptedStop: Termination?
    @exclusivity(unchecked) private var observers: ContiguousArray<SubjectObserver> = []
    /// How many entries of `observers` have left (they stay in place until the array is compacted).
    @exclusivity(unchecked) private var departed = 0
    @exclusivity(unchecked) private var emitting = false
    @exclusivity(unchecked) private var backlogStorage: Backlog?
    /// Makes racing senders wait once the backlog is long (``SenderThrottle``).
    @exclusivity(unchecked) private var throttle = SenderThrottle()
    /// `backlog.pending.count`, readable without the backlog (the hot path tests it).
    @exclusivity(unchecked) private var pendingCount = 0
    /// `catchUpList.observers.count`, readable without the list (the senders test it).
    @exclusivity(unchecked) private var catchUpCount = 0
    /// The observers catching up, made on first use (a subject nobody subscribes to late, such as
    /// every `PublishSubject`, never pays for it).
    @exclusivity(unchecked) private var catchUpListStorage: CatchUpList?
    /// Unsubscribed observers whose sinks the emitting sender releases between two events.
    @exclusivity(unchecked) private var retired: [SubjectObserver] = []

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
        var live = ContiguousArray<SubjectObserver>()
        var released: [SubjectObserver] = []
        lock.locked {
            if catchUpCount > 0 { markCatchUpsReleasedLocked() }
            if observers.isEmpty && retired.isEmpty { return }
            swap(&live, &observers)
            swap(&released, &retired)
            // Unlisted, so that one of them disposed later is not counted as leaving the array.
            for observer in live { observer.place = .unlisted }
            departed = 0
            updateObserverCountLocked()
        }
        // Live observers are told their source is gone, so that operator sinks between the subject
        // and the subscriber, which hold one another and the subscriber's handle, are released too.
        // (Disposed entries still in the array only wait to be dropped.)
        for observer in live {
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
        for observer in catchUpList.observers { observer.releasedWhileCatchingUp = true }
    }

    /// The catch-up list, made on first use. Under the lock.
    @inline(never)
    private var catchUpList: CatchUpList {
        if let catchUpListStorage { return catchUpListStorage }
        let made = CatchUpList()
        catchUpListStorage = made
        return made
    }

    /// The backlog, made on first use. Under the lock.
    @inline(never)
    private var backlog: Backlog {
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
                for observer in stopped { observer.releaseSink() }
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

    var hasObservers: Bool { observerCount.load(ordering: .acquiring) > 0 }
    var isDisposed: Bool { isDisposedFlag.load(ordering: .acquiring) }

    /// Reads the accepted state at once under the lock.
    func withState<Result>(_ body: (Policy, Termination?, _ disposed: Bool) -> Result) -> Result {
        lock.locked { body(policy, acceptedStop, isDisposed) }
    }

    // MARK: - Senders

    @usableFromInline
    func next(_ element: Element) {
        guard !Policy.remembersElements && Policy.deliversElements else { return acceptNext(element) }
        let snapshot: ContiguousArray<SubjectObserver>? = lock.locked {
            if acceptedStop != nil || isDisposed { return nil }
            if catchUpCount > 0 { appendToCatchUpsLocked(element) }
            if emitting {
                enqueueNextLocked(element)
                return nil
            }
            emitting = true
            return observers
        }
        guard let snapshot else {
            if throttled.load(ordering: .relaxed) { waitIfThrottled() }
            return
        }
        deliver(element, to: snapshot)
        endEmission()
    }

    /// The path of the subjects that remember elements; out of line so that `PublishSubject`'s path
    /// never fetches the metadata of `Element?`.
    @inline(never)
    private func acceptNext(_ element: Element) {
        // The replaced element lives in a stack slot, and the lock returns only concrete types: in
        // unspecialized code (a subject made by `share(replay:)`) an `Element?` or a tuple holding
        // one costs run-time metadata lookups per element (about 5 000 instructions measured).
        var retired: AnyObject?
        let snapshot: ContiguousArray<SubjectObserver>? = withUnsafeTemporaryAllocation(
            of: Element.self, capacity: 1
        ) { slot in
            let replacedSlot = slot.baseAddress.unsafelyUnwrapped
            let (snapshot, replaced): (ContiguousArray<SubjectObserver>?, Bool) = lock.locked {
                if acceptedStop != nil || isDisposed { return (nil, false) }
                let replaced = policy.accept(element, replaced: replacedSlot, retired: &retired)
                if !Policy.deliversElements { return (nil, replaced) }
                if catchUpCount > 0 { appendToCatchUpsLocked(element) }
                if emitting {
                    enqueueNextLocked(element)
                    return (nil, replaced)
                }
                emitting = true
                return (observers, replaced)
            }
            // Released after unlocking: its deinitializer may call back into the subject.
            if replaced { replacedSlot.deinitialize(count: 1) }
            return snapshot
        }
        if retired != nil { retired = nil }
        guard let snapshot else {
            if throttled.load(ordering: .relaxed) { waitIfThrottled() }
            return
        }
        deliver(element, to: snapshot)
        endEmission()
    }

    @usableFromInline
    func terminate(_ termination: Termination) {
        let accepted: (ContiguousArray<SubjectObserver>, [Element])? = lock.locked {
            if acceptedStop != nil || isDisposed { return nil }
            acceptedStop = termination
            let elements = policy.elementsBefore(termination)
            let stopped = observers
            observers = []
            departed = 0
            if catchUpCount > 0 {
                for index in 0..<catchUpCount {
                    let queue = catchUpQueueLocked(at: index)
                    for element in elements { queue.elements.append(element) }
                    queue.termination = termination
                }
            }
            updateObserverCountLocked()
            if emitting {
                backlog.pending.enqueue(.terminate(termination, elementsBefore: elements, stopped))
                pendingCount += 1
                return nil
            }
            emitting = true
            return (stopped, elements)
        }
        guard let (stopped, elements) = accepted else { return }
        deliverTermination(termination, elementsBefore: elements, to: stopped)
        endEmission()
    }

    /// Queues `element` for the emitting sender. If the backlog has grown too long, the caller is
    /// told to wait after unlocking (``SenderThrottle``).
    @inline(never)
    private func enqueueNextLocked(_ element: Element) {
        backlog.pending.enqueue(.next(element, observers))
        pendingCount += 1
        throttle.registerLocked(backlog: pendingCount, raising: throttled)
    }

    /// Waits at the gate if one was meant for this thread.
    @inline(never)
    private func waitIfThrottled() {
        lock.locked { throttle.takeGateLocked(clearing: throttled) }?.wait()
    }

    @inline(never)
    private func appendToCatchUpsLocked(_ element: Element) {
        for index in 0..<catchUpCount { catchUpQueueLocked(at: index).elements.append(element) }
    }

    /// The queue of events accepted while the observer at `index` of the catch-up list catches up,
    /// made when the first one arrives.
    @inline(never)
    private func catchUpQueueLocked(at index: Int) -> CatchUpQueue<Element> {
        let list = catchUpList
        if let queue = list.queues[index] { return unsafeDowncast(queue, to: CatchUpQueue<Element>.self) }
        let made = CatchUpQueue<Element>()
        list.queues[index] = made
        return made
    }

    /// Lowers the emitting flag, unless events were queued or observers retired meanwhile.
    @inline(__always)
    private func endEmission() {
        let more: Bool = lock.locked {
            if pendingCount == 0 && retired.isEmpty {
                emitting = false
                return false
            }
            return true
        }
        if more { drain() }
    }

    /// Delivers queued events and releases retired sinks until there are none, then lowers the flag.
    /// The caller is the emitting sender.
    @inline(never)
    private func drain() {
        while true {
            var wakeUp: ThrottleWakeUp?
            let (item, released): (Pending?, [SubjectObserver]) = lock.locked {
                let released = retired
                retired = []
                if pendingCount > 0, let item = backlog.pending.dequeue() {
                    pendingCount -= 1
                    throttle.holderDrainsLocked()
                    return (item, released)
                }
                emitting = false
                wakeUp = throttle.tokenReleasedLocked()
                return (nil, released)
            }
            // Retired observers are in no snapshot still to be delivered, except as disposed entries
            // that delivery skips, so their sinks are this thread's to release.
            for observer in released { observer.releaseSink() }
            guard let item else {
                wakeUp?.wake()
                return
            }
            switch item {
            case .next(let element, let snapshot):
                deliver(element, to: snapshot)
            case .terminate(let termination, let elements, let snapshot):
                deliverTermination(termination, elementsBefore: elements, to: snapshot)
            }
        }
    }

    // MARK: - Delivery (the emitting sender only)

    @inline(__always)
    private func deliver(_ element: Element, to snapshot: ContiguousArray<SubjectObserver>) {
        if isDisposedFlag.load(ordering: .relaxed) { return }
        // The snapshot holds its entries, and each entry its sink, so neither is retained per call.
        snapshot.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                Unmanaged.passUnretained(entries[index])._withUnsafeGuaranteedRef { observer in
                    if !observer.isDisposed { observer.withSink(of: Element.self) { $0.next(element) } }
                }
            }
        }
    }

    @inline(never)
    private func deliverTermination(
        _ termination: Termination, elementsBefore elements: [Element], to stopped: ContiguousArray<SubjectObserver>
    ) {
        for element in elements {
            deliver(element, to: stopped)
        }
        if !isDisposed {
            for observer in stopped where !observer.isDisposed {
                observer.withSink(of: Element.self) { $0.terminate(termination) }
            }
        }
        // These observers left the array when the event was accepted: nobody else calls them.
        for observer in stopped { observer.releaseSink() }
    }

    // MARK: - Subscribing and unsubscribing

    /// Subscribes `sink`. A stopped or disposed subject delivers its replay and terminal event (or
    /// `RxError.disposed`) at once and returns an empty disposable; otherwise the sink receives its
    /// replay, then exactly the events accepted after it subscribed, the first of them on this thread.
    func subscribe(_ sink: Sink<Element>, owner: AnyObject) -> Disposable {
        let observer = SubjectObserver(sink: sink, core: self)
        if Policy.remembersElements { return subscribeWithReplay(observer, sink: sink, owner: owner) }
        // Nothing to replay: the observer joins at once, and no type that depends on `Element` is made.
        let stop: Termination? = lock.locked {
            if isDisposed { return .error(RxError.disposed(object: owner)) }
            if let acceptedStop { return acceptedStop }
            appendLocked(observer)
            return nil
        }
        guard let stop else { return observer }
        observer.releaseSink()
        sink.terminate(stop)
        return Disposables.create()
    }

    @inline(never)
    private func subscribeWithReplay(_ observer: SubjectObserver, sink: Sink<Element>, owner: AnyObject)
        -> Disposable
    {
        // The replay is captured in O(1) under the lock (one element into a stack slot, or a
        // copy-on-write snapshot of the buffer) and delivered after unlocking. Nothing here names a
        // type that depends on `Element` (an array, an optional, an enum with an element payload),
        // each of which would be a run-time metadata lookup in this unspecialized code.
        withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { slot in
            let single = slot.baseAddress.unsafelyUnwrapped
            // Outside the closure's result, so that the snapshot can be let go of as soon as the
            // replay is delivered: while it is held, senders write to a copy of the buffer.
            var capture = ReplayCapture.nothing
            let start: SubscribeStart = lock.locked {
                if isDisposed { return .stopped(.error(RxError.disposed(object: owner))) }
                capture = policy.captureReplay(stopped: acceptedStop, into: single)
                if let acceptedStop { return .stopped(acceptedStop) }
                if case .nothing = capture {
                    appendLocked(observer)
                    return .joined
                }
                observer.place = .catchingUp
                observer.catchUpIndex = catchUpCount
                let list = catchUpList
                list.observers.append(observer)
                list.queues.append(nil)
                catchUpCount += 1
                updateObserverCountLocked()
                return .catchingUp
            }
            switch start {
            case .joined:
                return observer
            case .stopped(let stop):
                observer.releaseSink()
                deliverReplay(capture, single: single, to: sink, unless: nil)
                capture = .nothing
                sink.terminate(stop)
                return Disposables.create()
            case .catchingUp:
                #if DEBUG
                    SubjectTestHooks.catchingUp()
                #endif
                // The replay is part of `subscribe` and goes out whole, as in RxSwift, unless the
                // observer is disposed meanwhile.
                deliverReplay(capture, single: single, to: sink, unless: observer)
                capture = .nothing
                catchUp(observer, sink: sink)
                return observer
            }
        }
    }

    /// How a subscription to a subject that replays begins (``subscribeWithReplay(_:sink:owner:)``).
    private enum SubscribeStart {
        /// Nothing to replay: the observer joined the array.
        case joined
        /// The observer was registered as catching up, after its replay.
        case catchingUp
        /// The subject has stopped or was disposed: the replay, then this.
        case stopped(Termination)
    }

    /// Delivers a captured replay to `sink` (stopping if `observer` is disposed) and destroys what
    /// was captured: after unlocking, as the elements' deinitializers may call back into the subject.
    @inline(__always)
    private func deliverReplay(
        _ capture: ReplayCapture, single: UnsafeMutablePointer<Element>, to sink: Sink<Element>,
        unless observer: SubjectObserver?
    ) {
        switch capture {
        case .nothing:
            break
        case .single:
            if observer?.isDisposed != true { sink.next(single.pointee) }
            single.deinitialize(count: 1)
        case .snapshot(let snapshot):
            Policy.forEachReplayed(in: snapshot) { element in
                if observer?.isDisposed == true { return false }
                sink.next(element)
                return true
            }
        }
    }

    /// What a catching-up subscriber does next (``catchUp(_:sink:)``).
    private enum CatchUpStep {
        /// Deliver these events, accepted meanwhile, then look again.
        case deliver(AnyObject)
        /// Nothing left: the observer joined the array.
        case joined
        /// Stopped (terminated or disposed): release what is left, and the sink.
        case stopped(AnyObject?)
    }

    /// Delivers what was accepted after `observer`'s replay was captured, on the subscribing thread,
    /// until nothing is left and the observer joins the array.
    @inline(never)
    private func catchUp(_ observer: SubjectObserver, sink: Sink<Element>) {
        var terminated = false
        var releasedForGood = false
        while true {
            let step: CatchUpStep = lock.locked {
                let done = terminated || observer.isDisposed || isDisposed
                let list = catchUpList
                let index = observer.catchUpIndex
                let queue = list.queues[index]
                list.queues[index] = nil
                if !done, let queue { return .deliver(queue) }
                // The list's order does not matter, so the last entry takes this one's place.
                let last = catchUpCount - 1
                if index != last {
                    list.observers.swapAt(index, last)
                    list.queues.swapAt(index, last)
                    list.observers[index].catchUpIndex = index
                }
                list.observers.removeLast()
                list.queues.removeLast()
                catchUpCount -= 1
                // Caught up after the subject let go of its observers (``detach()``): it leaves too.
                releasedForGood = !done && observer.releasedWhileCatchingUp
                if done || releasedForGood {
                    observer.place = .unlisted
                    updateObserverCountLocked()
                    return .stopped(queue)
                }
                appendLocked(observer)
                return .joined
            }
            switch step {
            case .deliver(let queue):
                let queue = unsafeDowncast(queue, to: CatchUpQueue<Element>.self)
                // What was accepted after the replay is dropped once the subject is disposed, as the
                // emitting sender drops its queue.
                queue.elements.forEach { element in
                    if observer.isDisposed || isDisposed { return false }
                    sink.next(element)
                    return true
                }
                if let termination = queue.termination, !observer.isDisposed && !isDisposed {
                    terminated = true
                    sink.terminate(termination)
                }
            case .joined:
                return
            case .stopped(let left):
                // Elements left for a stopped observer are released here, not under the lock: their
                // deinitializers may call back into the subject.
                withExtendedLifetime(left) {}
                if releasedForGood { observer.releaseSinkForGood() } else { observer.releaseSink() }
                return
            }
        }
    }

    override func unsubscribe(_ observer: SubjectObserver) {
        let releaseNow: Bool = lock.locked {
            switch observer.place {
            case .live:
                observer.place = .unlisted
                // Once the subject has stopped or been disposed, the array it was in is gone.
                if acceptedStop == nil && !isDisposed {
                    if !emitting && observers.last === observer {
                        // The newest observer leaving while no sender walks the array (a lone
                        // subscriber, subscriptions disposed newest first): no hole to leave.
                        observers.removeLast()
                    } else {
                        departed += 1
                    }
                    if departed > observers.count &>> 1 { compactLocked() }
                    updateObserverCountLocked()
                }
            case .catchingUp:
                // The subscribing thread sees the disposed flag and releases it.
                return false
            case .unlisted:
                break
            }
            if emitting {
                retired.append(observer)
                return false
            }
            return true
        }
        if releaseNow { observer.releaseSink() }
    }

    /// Appends a new observer to the array: it receives every event accepted from now on.
    private func appendLocked(_ observer: SubjectObserver) {
        observer.place = .live
        observers.append(observer)
        updateObserverCountLocked()
    }

    /// Removes the observers that left from the array, keeping the order of the others. Called once
    /// more than half the array has left, so it costs O(1) per departure. In place, moving the
    /// entries without reference counting (the array is copied first if a sender still holds it as
    /// its snapshot, a copy that sender's delivery already costs as much as).
    ///
    /// The entries dropped may be released here, under the lock, and that runs no user code: an
    /// observer's sink is released once it has left, by its disposing thread (which holds the
    /// observer meanwhile) or by the emitting sender (whose retired list holds it), so an entry the
    /// array holds last has no sink left, and its core outlives it.
    @inline(never)
    private func compactLocked() {
        let kept = observers.withUnsafeMutableBufferPointer { entries in
            var kept = 0
            for index in entries.indices where entries[index].place == .live {
                if index != kept { entries.swapAt(index, kept) }
                kept += 1
            }
            return kept
        }
        observers.removeLast(observers.count - kept)
        departed = 0
    }

    /// Releases every observer; later events are ignored and later subscribers get `RxError.disposed`.
    func dispose() {
        let released: (ContiguousArray<SubjectObserver>, Backlog?, [AnyObject])? = lock.locked {
            if isDisposedFlag.exchange(true, ordering: .acquiringAndReleasing) { return nil }
            var taken = observers
            observers = []
            departed = 0
            let dropped = pendingCount > 0 ? dropQueuedLocked() : nil
            // Each catching-up subscriber stops when it next looks; what was kept for it goes now.
            var droppedCatchUps: [AnyObject] = []
            for index in 0..<catchUpCount {
                if let queue = catchUpList.queues[index] { droppedCatchUps.append(queue) }
                catchUpList.queues[index] = nil
            }
            if emitting {
                // The emitting sender may be calling them: it releases them between two events.
                retired.append(contentsOf: taken)
                taken = []
            }
            updateObserverCountLocked()
            return (taken, dropped, droppedCatchUps)
        }
        guard let released else { return }
        for observer in released.0 { observer.releaseSink() }
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
            if case .terminate(_, _, let stopped) = item { retired.append(contentsOf: stopped) }
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

    private func updateObserverCountLocked() {
        observerCount.store(observers.count - departed + catchUpCount, ordering: .releasing)
    }
}

/// The subscribers of a subject catching up, in any order, each with the queue of events accepted
/// for it meanwhile (a `CatchUpQueue` of the subject's element type, made when the first arrives).
/// Not generic, so that a late subscriber with no sender racing it looks up no metadata.
///
/// Thread-safety: guarded by the subject's lock.
final class CatchUpList {
    var observers = ContiguousArray<SubjectObserver>()
    var queues = ContiguousArray<AnyObject?>()
}

/// The events a subject accepted while one subscriber was catching up, kept for it alone: made only
/// when a sender races a late subscriber.
///
/// Thread-safety: filled under the subject's lock; the subscriber takes it out under the lock and
/// reads it after unlocking, when nobody else holds it.
final class CatchUpQueue<Element>: @unchecked Sendable {
    let elements = ReplayBuffer<Element>()
    /// The terminal event, after every element.
    var termination: Termination?
}

#if DEBUG
    /// Test-only pauses at the points where a race between threads decides an outcome, so that tests
    /// can reproduce it deterministically.
    enum SubjectTestHooks {
        private static let onCatchingUp = Mutex<(@Sendable () -> Void)?>(nil)

        /// Runs `body` whenever a new subscriber has registered and is about to receive its replay.
        static func whileCatchingUp<Result>(_ hook: @escaping @Sendable () -> Void, _ body: () throws -> Result)
            rethrows -> Result
        {
            onCatchingUp.withAnnotatedLock { $0 = hook }
            defer { onCatchingUp.withAnnotatedLock { $0 = nil } }
            return try body()
        }

        static func catchingUp() {
            let hook = onCatchingUp.withAnnotatedLock { $0 }
            hook?()
        }
    }
#endif
