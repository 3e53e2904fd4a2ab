import Synchronization

/// The base of `combineLatest` and `zip` (arity and collection forms). Arrivals are serialized by a
/// ``DrainQueue``: the claim's holder handles an event at once, others queue it for the holder
/// (DESIGN.md, "The drain loop"). So the subclass's source state needs no lock, and downstream is
/// called by the holder only, never under `lock`.
///
/// Thread-safety: `pending` and `stateReleased` are guarded by `lock`; `isDone`, `goneSources` and
/// everything the subclass keeps about its sources belong to the claim's holder.
@usableFromInline
class CombiningSink<Output>: OperatorSink<Never, Output>, @unchecked Sendable {
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var pending = DrainQueue<() -> Void>()
    @exclusivity(unchecked) private var stateReleased = false
    @usableFromInline @exclusivity(unchecked) final var isDone: CombiningFlags
    @exclusivity(unchecked) private var goneSources = 0

    init(arity: Int, downstream: Sink<Output>) {
        isDone = CombiningFlags(arity: arity)
        super.init(downstream: downstream)
    }

    /// Source `index` ended: an error ends the result, and so does the last source's completion. By the
    /// holder.
    @usableFromInline
    final func sourceEnded(_ index: Int, _ termination: Termination) {
        guard isForwarding else { return }
        if case .error = termination {
            forwardTermination(termination)
            return
        }
        _ = isDone.set(index)
        if isDone.allSet {
            forwardTermination(.completed)
        } else if goneSources > 0 {
            letGoIfAllGone()
        }
    }

    final func sourceGone(_ index: Int) {
        guard isForwarding else { return }
        goneSources += 1
        letGoIfAllGone()
    }

    /// Once every source has completed or let go (some let go), nothing can arrive: downstream hears its
    /// source is gone, and the holder tears the sources down (``tearDownSources()``).
    private func letGoIfAllGone() {
        guard isDone.count + goneSources == isDone.arity, stop() else { return }
        downstream.sourceGone()
    }

    /// Claims if nobody holds the claim; then handle the event and call ``leave()``.
    @usableFromInline @inline(__always)
    final func enter() -> Bool {
        lock.locked { () -> Bool in pending.claimLocked() }
    }

    /// Runs `work` as the holder: now if free, else after the holder's work. The slow path (it allocates
    /// the closure).
    @inline(never)
    final func enqueue(_ work: @escaping () -> Void) {
        var gate: ThrottleGate?
        if lock.locked({ () -> Bool in pending.enqueueLocked(work, gate: &gate) }) {
            leave()
        } else {
            gate?.wait()
        }
    }

    /// Runs what was queued meanwhile, then gives the claim back. After the sink stopped, the holder
    /// tears the sources down: only it may touch them.
    @usableFromInline
    final func leave() {
        // The usual case, in one critical section: nothing was queued meanwhile and the sink goes on.
        if lock.locked({ () -> Bool in isForwarding && pending.releaseIfEmptyLocked() }) {
            return
        }
        var dropped = Queue<() -> Void>()
        var tearDown = false
        drain(
            next: { wakeUp in
                lock.locked { () -> (() -> Void)? in
                    if isForwarding { return pending.nextLocked(wakeUp: &wakeUp) }
                    // Stopped: what is queued is dropped, not run, so a source sending from another thread cannot
                    // keep this thread here.
                    dropped = pending.releaseDroppingLocked(wakeUp: &wakeUp)
                    if !stateReleased {
                        stateReleased = true
                        tearDown = true
                    }
                    return nil
                }
            },
            deliver: { work in work() })
        // Released outside the lock: an element's deinit may call back in.
        withExtendedLifetime(dropped) {
            if tearDown { tearDownSources() }
        }
    }

    /// Disposes every source subscription and releases the sources and their values, breaking the
    /// cycle with them. Once, by the holder, after the sink stopped.
    func tearDownSources() {}

    /// Tears the sources down now if nobody holds the claim, else the holder does when it gives it back.
    override func disposeResources() {
        if enter() { leave() }
    }
}

/// Which sources have a value or have completed: a bit mask up to 64 sources, an array beyond.
@usableFromInline
struct CombiningFlags {
    @usableFromInline var mask: UInt64 = 0
    @usableFromInline var large: [Bool]?
    @usableFromInline let arity: Int
    @usableFromInline private(set) var count = 0

    init(arity: Int) {
        self.arity = arity
        if arity > 64 { large = Array(repeating: false, count: arity) }
    }

    @inlinable @inline(__always)
    subscript(index: Int) -> Bool {
        if arity > 64 { return large.unsafelyUnwrapped[index] }
        return mask & (1 << UInt64(index)) != 0
    }

    /// Sets the flag of `index`; `true` if it was not set.
    @inlinable @inline(__always)
    mutating func set(_ index: Int) -> Bool {
        if self[index] { return false }
        if arity > 64 {
            large![index] = true
        } else {
            mask |= 1 << UInt64(index)
        }
        count += 1
        return true
    }

    mutating func clear() {
        mask = 0
        if large != nil { large = Array(repeating: false, count: arity) }
        count = 0
    }

    /// Whether every flag is set.
    @inlinable
    var allSet: Bool { count == arity }

    /// Whether every flag except `index`'s is set.
    @inlinable
    func allSet(except index: Int) -> Bool {
        count == arity || (count == arity - 1 && !self[index])
    }
}

/// One source of a combining operator: hands the source's events to the parent's drain loop. Its own
/// subscription, disposed when its source ends (as in RxSwift) or with the parent.
@usableFromInline
class CombiningSource<Element, Output>: OperatorSink<Element, Output>, @unchecked Sendable {
    final let parent: CombiningSink<Output>
    final let index: Int

    @usableFromInline
    init(parent: CombiningSink<Output>, index: Int) {
        self.parent = parent
        self.index = index
        // The parent's downstream fills the base's slot; a source hands its events to the parent.
        super.init(downstream: parent.downstream)
    }

    /// Subscribes to `source`; a constant source (`just`, `empty`, `error`) is delivered without a
    /// subscription. Subscribed even when an earlier source already ended the result, then disposed at
    /// once, as RxSwift does.
    @usableFromInline
    final func attach(to source: Observable<Element>) {
        if let termination = source.deliverConstant({ next($0) }) {
            terminate(termination)
        } else {
            setUpstream(source.subscribe(sink: self))
        }
    }

    override final func next(_ element: Element) {
        // The parent's flag too: once the result has ended, nothing more is queued for it.
        guard isForwarding, parent.isForwarding else { return }
        if parent.enter() {
            receive(element)
            parent.leave()
        } else {
            parent.enqueue { [self] in receive(element) }
        }
    }

    override final func terminate(_ termination: Termination) {
        guard stop() else { return }
        dispose()
        if parent.enter() {
            received(termination)
            parent.leave()
        } else {
            parent.enqueue { [self] in received(termination) }
        }
    }

    override final func forwardSourceGone() {
        guard stop() else { return }
        if parent.enter() {
            parent.sourceGone(index)
            parent.leave()
        } else {
            parent.enqueue { [self] in parent.sourceGone(index) }
        }
    }

    func receive(_ element: Element) {
        rxAbstractMethod()
    }

    func received(_ termination: Termination) {
        rxAbstractMethod()
    }
}

/// The producer of the collection forms of `combineLatest` and `zip`.
final class CollectionCombiningObservable<Element, Result>: Observable<Result>, @unchecked Sendable {
    typealias Run = ([Observable<Element>], @escaping ([Element]) throws -> Result, Sink<Result>) -> Disposable

    private let sources: [Observable<Element>]
    private let selector: ([Element]) throws -> Result
    private let run: Run

    init(sources: [Observable<Element>], selector: @escaping ([Element]) throws -> Result, run: @escaping Run) {
        self.sources = sources
        self.selector = selector
        self.run = run
        super.init()
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        run(sources, selector, downstream)
    }
}
