import Synchronization

/// The base of the operators that combine the elements of several sequences (`combineLatest` and
/// `zip`, arity and collection forms).
///
/// Arrivals are serialized by a drain loop (``DrainQueue``): a source's event is handled at once by the
/// thread that delivers it if no other thread is handling one; otherwise it is queued and the busy
/// thread handles it before giving the token back. The state a subclass keeps about its sources
/// (latest values, queues, which have completed) is therefore touched by one thread at a time and
/// needs no lock, and downstream is called by the token holder only, never under `lock`. An event
/// sent from inside a delivery (re-entrantly) is handled after that delivery returns.
///
/// Thread-safety: `pending` and `stateReleased` are guarded by `lock`; everything the
/// subclass keeps about its sources belongs to the token holder.
@usableFromInline
class CombiningSink<Output>: OperatorSink<Never, Output>, @unchecked Sendable {
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var pending = DrainQueue<() -> Void>()
    @exclusivity(unchecked) private var stateReleased = false
    /// Which sources have completed. Owned by the token holder.
    @usableFromInline @exclusivity(unchecked) final var isDone: CombiningFlags
    /// How many sources let go of their sink (``AnySink/sourceGone()``): they will neither
    /// deliver nor complete. Owned by the token holder.
    @exclusivity(unchecked) private var goneSources = 0

    init(arity: Int, downstream: Sink<Output>) {
        isDone = CombiningFlags(arity: arity)
        super.init(downstream: downstream)
    }

    /// Source `index` ended: an error ends the result, and so does the completion of the last
    /// source. Runs as the token holder.
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

    /// Source `index` let go of its sink. Runs as the token holder.
    final func sourceGone(_ index: Int) {
        guard isForwarding else { return }
        goneSources += 1
        letGoIfAllGone()
    }

    /// When every source has completed or let go (and some let go, or the result would have
    /// completed), nothing can arrive any more: downstream hears that its source is gone, and the
    /// sink stops, so that the token holder tears the sources down (``tearDownSources()``).
    private func letGoIfAllGone() {
        guard isDone.count + goneSources == isDone.arity, stop() else { return }
        downstream.sourceGone()
    }

    /// Takes the token if nobody holds it; then handle the event and call ``leave()``.
    @usableFromInline @inline(__always)
    final func enter() -> Bool {
        lock.locked { () -> Bool in pending.claimLocked() }
    }

    /// Runs `work` as the token holder: now if the token is free, otherwise after the current holder's
    /// work. The slow path of an arrival: it allocates the closure.
    @inline(never)
    final func enqueue(_ work: @escaping () -> Void) {
        var gate: ThrottleGate?
        if lock.locked({ () -> Bool in pending.enqueueLocked(work, gate: &gate) }) {
            leave()
        } else {
            gate?.wait()
        }
    }

    /// Runs what was queued meanwhile, then gives the token back. After the sink stopped, the token
    /// holder tears the sources down: it is the only thread that may touch them.
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
                    // Stopped: what is queued can deliver nothing. It is dropped rather than run one
                    // by one, so a source that keeps sending from another thread cannot keep this
                    // thread here.
                    dropped = pending.releaseDroppingLocked(wakeUp: &wakeUp)
                    if !stateReleased {
                        stateReleased = true
                        tearDown = true
                    }
                    return nil
                }
            },
            deliver: { work in work() })
        // `dropped` is released here, outside the lock: an element's deinit may call back in.
        withExtendedLifetime(dropped) {
            if tearDown { tearDownSources() }
        }
    }

    /// Disposes every source subscription and releases the references to the sources and their
    /// values (which breaks the cycle between this sink and its sources). Called once, by the token
    /// holder, after the sink stopped.
    func tearDownSources() {}

    /// Tears the sources down now if no thread holds the token; otherwise the holder does it when it
    /// gives the token back (which, for a disposal from inside a delivery, is before the delivering
    /// call returns).
    override func disposeResources() {
        if enter() { leave() }
    }
}

/// Which of a combining operator's sources have a value and which have completed: a bit mask for up
/// to 64 sources (no allocation), an array beyond.
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

    /// Clears every flag.
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

/// One source of a combining operator: it receives the source's events on the source's thread and
/// hands them to the parent's drain loop. Its `downstream` is not used. It is its own subscription:
/// disposed when its source ends (so the source's subscription ends then, as in RxSwift) or with the
/// parent.
@usableFromInline
class CombiningSource<Element, Output>: OperatorSink<Element, Output>, @unchecked Sendable {
    final let parent: CombiningSink<Output>
    final let index: Int

    @usableFromInline
    init(parent: CombiningSink<Output>, index: Int, downstream: Sink<Output>) {
        self.parent = parent
        self.index = index
        super.init(downstream: downstream)
    }

    /// Subscribes to `source`; a constant source (`just`, `empty`, `error`) is delivered at once,
    /// without a subscription. A source is subscribed even when an earlier one already ended the
    /// result during its subscription: its subscription is then disposed at once (RxSwift subscribes
    /// every source in that case too, and its tests record those subscriptions).
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

    /// Stores `element` and lets the parent react; runs as the parent's token holder.
    func receive(_ element: Element) {
        rxAbstractMethod()
    }

    /// Lets the parent react to the source's end; runs as the parent's token holder.
    func received(_ termination: Termination) {
        rxAbstractMethod()
    }
}

/// The producer of the collection forms of `combineLatest` and `zip`: it keeps the sources and the
/// selector; `run` makes the operator's sink and subscribes it.
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
