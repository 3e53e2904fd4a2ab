import Synchronization

/// The producer of `share(replay: 0 or 1, scope: .whileConnected)`, the sharing RxCocoa adds after
/// every `Driver` (replay 1) and `Signal` (replay 0) operator, so a Driver chain holds one per stage.
///
/// Built for that case rather than on a subject: a connection is one object holding its observers
/// and the latest element, guarded by the producer's lock (one critical section per element), and
/// subscribing makes two objects (a connection for the first subscriber, a sink per subscriber).
/// Measured against the subject-based version on RxSwift's Driver scenarios: see Benchmarks/README.md.
///
/// Semantics are those of ``ShareWhileConnectedObservable`` (and RxSwift's
/// `ShareReplay1WhileConnected`): the first subscriber connects, the last one leaving disconnects,
/// a terminated connection is dropped before its observers hear of it, and a new subscriber
/// receives the latest element first. That replay is made without calling out under the lock: the
/// subscriber is registered as catching up, receives the element on its own thread, and then every
/// element that arrived meanwhile, before it joins the observers — so it never misses or reorders an
/// element delivered concurrently on another thread.
///
/// The classes are generic, and their methods run unspecialized; whatever they allocate is made by
/// closures written in the caller's (specialized) code, so no generic metadata is looked up per
/// subscription (about 330 instructions each; see "Performance").
@usableFromInline
final class ShareLatestObservable<Element>: Observable<Element>, @unchecked Sendable {
    let lock = Mutex<Void>(())
    /// The live connection; guarded by `lock`.
    @exclusivity(unchecked) var connection: ShareLatestConnection<Element>?
    let source: Observable<Element>
    let replays: Bool
    private let makeConnection: (ShareLatestObservable<Element>) -> ShareLatestConnection<Element>
    private let makeSink: (Sink<Element>) -> ShareLatestSink<Element>

    @usableFromInline
    init(
        source: Observable<Element>, replays: Bool,
        makeConnection: @escaping (ShareLatestObservable<Element>) -> ShareLatestConnection<Element> = {
            ShareLatestConnection(parent: $0)
        },
        makeSink: @escaping (Sink<Element>) -> ShareLatestSink<Element> = { ShareLatestSink(downstream: $0) }
    ) {
        self.source = source
        self.replays = replays
        self.makeConnection = makeConnection
        self.makeSink = makeSink
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = makeSink(downstream)
        // Out of the critical section through captured variables: a generic tuple as its result
        // would cost a metadata lookup.
        var joined: ShareLatestConnection<Element>?
        var catchingUp: ShareLatestCatchUp<Element>?
        let isFirst: Bool = lock.locked {
            let isFirst: Bool
            let current: ShareLatestConnection<Element>
            if let live = connection {
                current = live
                isFirst = false
            } else {
                current = makeConnection(self)
                connection = current
                isFirst = true
            }
            current.subscriberCount += 1
            sink.connection = current
            joined = current
            if current.hasLatest {
                catchingUp = current.startCatchUpLocked(sink)
            } else {
                current.observers.append(sink)
            }
            return isFirst
        }
        let started = joined.unsafelyUnwrapped
        if let catchingUp { started.catchUp(catchingUp) }
        if isFirst { started.setUpstream(source.subscribe(sink: started)) }
        return sink
    }
}

/// One connection of ``ShareLatestObservable``: receives the source's events and relays them to the
/// observers. Everything but the upstream subscription is guarded by the parent's lock.
///
/// An `OperatorSink` for its upstream handling only; its downstream is a sink that is never called.
@usableFromInline
final class ShareLatestConnection<Element>: OperatorSink<Element, Never>, @unchecked Sendable {
    let parent: ShareLatestObservable<Element>
    @exclusivity(unchecked) var observers = ContiguousArray<AnySink>()
    @exclusivity(unchecked) var subscriberCount = 0
    @exclusivity(unchecked) var ended = false
    /// Two slots (replaying connections only), allocated at the first element: the latest element,
    /// and a scratch slot where the one it replaces waits to be released after unlocking. Kept out
    /// of an `Element?` so the per-element path needs no metadata of its own.
    @exclusivity(unchecked) var storage: UnsafeMutablePointer<Element>?
    @exclusivity(unchecked) var hasLatest = false
    @exclusivity(unchecked) var catchUps = ContiguousArray<ShareLatestCatchUp<Element>>()
    /// `catchUps.count`, read on the per-element path without the array's generic metadata.
    @exclusivity(unchecked) var catchUpCount = 0

    @usableFromInline
    init(parent: ShareLatestObservable<Element>) {
        self.parent = parent
        super.init(downstream: UncalledSink.instance)
    }

    override func next(_ element: Element) {
        guard parent.replays else {
            guard
                let snapshot = parent.lock.locked({ () -> ContiguousArray<AnySink>? in
                    if ended { return nil }
                    if catchUpCount > 0 { appendToCatchUpsLocked(element) }
                    return observers
                })
            else { return }
            deliver(element, to: snapshot)
            return
        }
        var snapshot: ContiguousArray<AnySink>?
        let didReplace: Bool = parent.lock.locked {
            if ended { return false }
            if catchUpCount > 0 { appendToCatchUpsLocked(element) }
            snapshot = observers
            return storeLocked(element)
        }
        // Released after unlocking: its deinitializer may call back into the share. The scratch slot
        // is this (serialized) sender's alone, and its memory lives as long as the connection.
        if didReplace { _ = storage.unsafelyUnwrapped.successor().move() }
        if let snapshot { deliver(element, to: snapshot) }
    }

    override func terminate(_ termination: Termination) {
        var stopped = ContiguousArray<AnySink>()
        let wasLive = withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { slot in
            let released = slot.baseAddress.unsafelyUnwrapped
            var wasLive = false
            let didRelease: Bool = parent.lock.locked {
                if ended { return false }
                wasLive = true
                if catchUpCount > 0 { appendToCatchUpsLocked(termination) }
                swap(&stopped, &observers)
                return endLocked(movingLatestTo: released)
            }
            if didRelease { _ = released.move() }
            return wasLive
        }
        guard wasLive else { return }
        // The connection ended before its subscribers hear of it, so one that resubscribes from its
        // terminal handler starts a new connection (as in RxSwift).
        for observer in stopped {
            unsafeDowncast(observer, to: Sink<Element>.self).terminate(termination)
        }
        dispose()
    }

    @inline(__always)
    private func deliver(_ element: Element, to snapshot: ContiguousArray<AnySink>) {
        // The snapshot holds the sinks: a subscriber leaving meanwhile is not released under us.
        snapshot.withUnsafeBufferPointer { sinks in
            for sink in sinks { unsafeDowncast(sink, to: Sink<Element>.self).next(element) }
        }
    }

    /// Stores `element` as the latest; returns whether an older one was moved to the scratch slot.
    @inline(__always)
    private func storeLocked(_ element: Element) -> Bool {
        guard let storage else {
            storeFirstLocked(element)
            return false
        }
        // Single moves, not the `count:` forms: unspecialized, those go through the runtime's array
        // loops (`swift_arrayInitWithTakeFrontToBack`), several times the cost of one value witness.
        if hasLatest {
            storage.successor().initialize(to: storage.move())
            storage.initialize(to: element)
            return true
        }
        storage.initialize(to: element)
        hasLatest = true
        return false
    }

    @inline(never)
    private func storeFirstLocked(_ element: Element) {
        let made = UnsafeMutablePointer<Element>.allocate(capacity: 2)
        made.initialize(to: element)
        storage = made
        hasLatest = true
    }

    /// Ends the connection; its latest element moves to `released`, to be released after unlocking
    /// (its deinitializer may call back into the share).
    private func endLocked(movingLatestTo released: UnsafeMutablePointer<Element>) -> Bool {
        ended = true
        if parent.connection === self { parent.connection = nil }
        guard hasLatest else { return false }
        hasLatest = false
        released.initialize(to: storage.unsafelyUnwrapped.move())
        return true
    }

    deinit {
        // Slots are empty by now: the latest element left at the end, the scratch slot after each
        // element.
        storage?.deallocate()
    }

    /// A subscriber has gone; the last one disconnects the source.
    func leave(_ sink: AnySink) {
        let isLast = withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { slot in
            let released = slot.baseAddress.unsafelyUnwrapped
            var isLast = false
            let didRelease: Bool = parent.lock.locked {
                if let index = observers.firstIndex(where: { $0 === sink }) {
                    observers.remove(at: index)
                } else if catchUpCount > 0 {
                    removeCatchUpLocked(of: sink)
                }
                if ended { return false }
                subscriberCount -= 1
                guard subscriberCount == 0 else { return false }
                isLast = true
                return endLocked(movingLatestTo: released)
            }
            if didRelease { _ = released.move() }
            return isLast
        }
        if isLast { dispose() }
    }

    // MARK: - Catching up (a subscriber joining a connection that has an element to replay)

    @inline(never)
    func startCatchUpLocked(_ sink: ShareLatestSink<Element>) -> ShareLatestCatchUp<Element> {
        let entry = ShareLatestCatchUp<Element>(sink: sink)
        entry.elements.append(storage.unsafelyUnwrapped.pointee)
        catchUps.append(entry)
        catchUpCount += 1
        return entry
    }

    @inline(never)
    private func appendToCatchUpsLocked(_ element: Element) {
        for entry in catchUps where entry.termination == nil { entry.elements.append(element) }
    }

    @inline(never)
    private func appendToCatchUpsLocked(_ termination: Termination) {
        for entry in catchUps where entry.termination == nil { entry.termination = termination }
    }

    @inline(never)
    private func removeCatchUpLocked(of sink: AnySink) {
        guard let index = catchUps.firstIndex(where: { $0.sink === sink }) else { return }
        catchUps[index].isRemoved = true
        catchUps.remove(at: index)
        catchUpCount -= 1
    }

    /// Delivers the replayed element, then whatever arrived meanwhile, on the subscribing thread;
    /// joins the observers once nothing is left to deliver.
    @inline(never)
    func catchUp(_ entry: ShareLatestCatchUp<Element>) {
        while true {
            var elements: [Element] = []
            var termination: Termination?
            parent.lock.locked {
                if entry.isRemoved { return }
                swap(&elements, &entry.elements)
                termination = entry.termination
                if elements.isEmpty || termination != nil {
                    if let index = catchUps.firstIndex(where: { $0 === entry }) {
                        catchUps.remove(at: index)
                        catchUpCount -= 1
                    }
                    entry.isRemoved = true
                    if termination == nil { observers.append(entry.sink) }
                }
            }
            for element in elements { entry.sink.next(element) }
            if let termination { entry.sink.terminate(termination) }
            if elements.isEmpty || termination != nil { return }
        }
    }
}

/// A subscriber catching up: what it has still to receive before it joins the observers. Guarded by
/// the parent's lock.
final class ShareLatestCatchUp<Element> {
    let sink: ShareLatestSink<Element>
    var elements: [Element] = []
    var termination: Termination?
    var isRemoved = false

    init(sink: ShareLatestSink<Element>) {
        self.sink = sink
    }
}

/// One subscriber of ``ShareLatestObservable``.
@usableFromInline
final class ShareLatestSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    /// Set once, in the critical section that publishes the sink.
    @exclusivity(unchecked) var connection: ShareLatestConnection<Element>?

    @usableFromInline
    override init(downstream: Sink<Element>) {
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }

    override func disposeResources() {
        connection?.leave(self)
    }
}

/// The downstream of sinks that have none (a share's connection); never called.
final class UncalledSink: Sink<Never>, @unchecked Sendable {
    static let instance = UncalledSink()

    private override init() {
        super.init()
        #if DEBUG
            // One instance for the process, never released: not a resource the leak checks count.
            Resources.decrementTotal()
        #endif
    }

    override func next(_ element: Never) {}

    override func terminate(_ termination: Termination) {}
}
