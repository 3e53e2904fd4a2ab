import Synchronization

/// A subject that replays the latest elements (all of them, or up to a buffer size) to each new
/// observer, then delivers every later event. After a terminal event, new observers receive the
/// buffer and the terminal event. After ``dispose()``, the buffer is released, events are ignored
/// and new observers receive `RxError.disposed`.
///
/// As with ``BehaviorSubject``, `subscribe` delivers the buffer on the subscribing thread before it
/// returns, then the events accepted meanwhile, in order.
///
/// Thread-safety: as ``PublishSubject``.
public class ReplaySubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType, SinkConvertible,
    @unchecked Sendable
{
    /// The observer side's type.
    public typealias SubjectObserverType = ReplaySubject<Element>

    @usableFromInline let core: SubjectCore<ReplayPolicy<Element>>

    @inlinable
    init(bufferSize: Int?) {
        core = SubjectCore(policy: ReplayPolicy(bufferSize: bufferSize))
        super.init()
    }

    /// Creates a subject that replays at most `bufferSize` elements.
    @inlinable
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: Swift.max(0, bufferSize))
    }

    /// Creates a subject that replays every element it ever received.
    @inlinable
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: nil)
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool { core.isDisposed }

    /// Delivers `event` to every observer and remembers elements for replay.
    @inlinable
    public func on(_ event: Event<Element>) {
        core.on(event)
    }

    /// Delivers `element` to every observer (without building an `Event`).
    public func onNext(_ element: Element) {
        core.next(element)
    }

    /// Returns the subject itself.
    public func asObserver() -> ReplaySubject<Element> {
        self
    }

    /// Releases every observer and the buffer; later events are ignored.
    public func dispose() {
        core.dispose()
    }

    override func subscribe(sink: Sink<Element>) -> Disposable {
        core.subscribe(sink, owner: self)
    }

    func asSink() -> AnyObject {
        SubjectInput(core, subject: self)
    }

    deinit {
        core.detach()
    }
}

@usableFromInline
struct ReplayPolicy<Element>: SubjectPolicy {
    let bufferSize: Int?
    /// The remembered elements (raw memory rather than an array, see ``SubjectPolicy``). A new
    /// subscriber's replay is this object itself (copy-on-write), captured under the lock in O(1).
    var buffer = ReplayBuffer<Element>()

    @usableFromInline
    init(bufferSize: Int?) {
        self.bufferSize = bufferSize
    }

    @usableFromInline
    static var deliversElements: Bool { true }

    @usableFromInline
    mutating func accept(
        _ element: Element, replaced: UnsafeMutablePointer<Element>, retired: inout AnyObject?
    ) -> Bool {
        if bufferSize == 0 { return false }
        if buffer.replays.load(ordering: .acquiring) != 0 {
            // A subscriber is still walking its replay: it keeps the old buffer, the subject writes
            // to a copy. The old one is released after unlocking (if the replay ended meanwhile,
            // that release destroys its elements, whose deinitializers may call back in). A counter
            // rather than `isKnownUniquelyReferenced`: that check's load orders nothing, so a write
            // after a replay that just ended would not be ordered after the replay's reads (the
            // thread sanitizer reports it as a race).
            retired = buffer
            buffer = buffer.copy()
        }
        guard let bufferSize, buffer.count >= bufferSize else {
            buffer.append(element)
            return false
        }
        buffer.replaceOldest(with: element, movingOldestTo: replaced)
        return true
    }

    @usableFromInline
    func captureReplay(stopped: Termination?, into single: UnsafeMutablePointer<Element>) -> ReplayCapture {
        if buffer.count == 0 { return .nothing }
        buffer.replays.add(1, ordering: .relaxed)
        return .snapshot(buffer)
    }

    @usableFromInline
    static func forEachReplayed(in snapshot: AnyObject, _ body: (Element) -> Bool) {
        let buffer = unsafeDowncast(snapshot, to: ReplayBuffer<Element>.self)
        buffer.forEach(body)
        // Releasing: the subject's next write to this buffer (acquiring) is ordered after the reads.
        buffer.replays.subtract(1, ordering: .releasing)
    }

    @usableFromInline
    mutating func release() {
        // A fresh buffer: the old one goes with the copy of the policy the subject releases after
        // unlocking (the elements' deinitializers may call back into the subject).
        buffer = ReplayBuffer()
    }
    @usableFromInline
    func elementsBefore(_ termination: Termination) -> [Element] { [] }
}

/// Elements in order, oldest first, as a ring in one raw allocation once full: a replay subject's
/// buffer, and the events a subject keeps for a subscriber still catching up.
///
/// Thread-safety: changed under the subject's lock only, and only while no replay reads it (the
/// subject copies it first, see ``ReplayPolicy``); a replay reads it without the lock, counted in
/// `replays` (incremented under the lock).
@usableFromInline
final class ReplayBuffer<Element>: @unchecked Sendable {
    /// How many replays are reading the buffer.
    let replays = Atomic<Int>(0)
    private var storage: UnsafeMutablePointer<Element>?
    private var capacity = 0
    private var head = 0
    private(set) var count = 0

    @usableFromInline
    init() {}

    /// Adds `element` after the newest (the buffer grows as needed).
    func append(_ element: Element) {
        if count == capacity { grow() }
        (storage.unsafelyUnwrapped + (head + count) % capacity).initialize(to: element)
        count += 1
    }

    /// Moves the oldest element into `oldest` and adds `element` as the newest (the count stays).
    func replaceOldest(with element: Element, movingOldestTo oldest: UnsafeMutablePointer<Element>) {
        let storage = storage.unsafelyUnwrapped
        oldest.moveInitialize(from: storage + head, count: 1)
        // The slot after the newest: the one just vacated when the ring is exactly full.
        (storage + (head + count) % capacity).initialize(to: element)
        head = head + 1 == capacity ? 0 : head + 1
    }

    /// Calls `body` with each element in place, oldest first, until it returns `false`.
    func forEach(_ body: (Element) -> Bool) {
        guard let storage else { return }
        var slot = head
        for _ in 0..<count {
            if !body(storage[slot]) { return }
            slot = slot + 1 == capacity ? 0 : slot + 1
        }
    }

    /// A copy with the same elements, oldest first, and the same capacity (two bulk copies).
    @inline(never)
    func copy() -> ReplayBuffer<Element> {
        let copied = ReplayBuffer<Element>()
        guard let storage else { return copied }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        let firstPart = Swift.min(count, capacity - head)
        grown.initialize(from: storage + head, count: firstPart)
        (grown + firstPart).initialize(from: storage, count: count - firstPart)
        copied.storage = grown
        copied.capacity = capacity
        copied.count = count
        return copied
    }

    func removeAll() {
        guard let storage else { return }
        for index in 0..<count { (storage + (head + index) % capacity).deinitialize(count: 1) }
        storage.deallocate()
        self.storage = nil
        capacity = 0
        head = 0
        count = 0
    }

    private func grow() {
        let newCapacity = Swift.max(1, capacity * 2)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let storage {
            for index in 0..<count {
                (grown + index).moveInitialize(from: storage + (head + index) % capacity, count: 1)
            }
            storage.deallocate()
        }
        storage = grown
        capacity = newCapacity
        head = 0
    }

    deinit {
        removeAll()
    }
}
