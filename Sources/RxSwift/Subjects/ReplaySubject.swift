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
    /// The remembered elements. A class over raw memory, not an array: in unspecialized code (a
    /// subject made by `share(replay:)`) every use of a `ContiguousArray<Element>` or an
    /// `Optional<Element>` costs a run-time metadata lookup, here paid once per subject.
    var buffer = ReplayBuffer<Element>()

    @usableFromInline
    init(bufferSize: Int?) {
        self.bufferSize = bufferSize
    }

    @usableFromInline
    static var deliversElements: Bool { true }

    @usableFromInline
    mutating func accept(_ element: Element, replaced: UnsafeMutablePointer<Element>) -> Bool {
        guard let bufferSize else {
            buffer.append(element)
            return false
        }
        if bufferSize == 0 { return false }
        if buffer.count < bufferSize {
            buffer.append(element)
            return false
        }
        buffer.replaceOldest(with: element, movingOldestTo: replaced)
        return true
    }

    @usableFromInline
    func replay(stopped: Termination?) -> [Element] { buffer.elements }
    @usableFromInline
    mutating func release() {
        // A fresh buffer: the old one goes with the copy of the policy the subject releases after
        // unlocking (the elements' deinitializers may call back into the subject).
        buffer = ReplayBuffer()
    }
    @usableFromInline
    func elementsBefore(_ termination: Termination) -> [Element] { [] }
}

/// The elements a replay subject remembers, oldest first, as a ring in one raw allocation once full.
///
/// Thread-safety: used under the subject's lock only.
@usableFromInline
final class ReplayBuffer<Element>: @unchecked Sendable {
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

    /// The elements, oldest first.
    var elements: [Element] {
        guard let storage else { return [] }
        return (0..<count).map { storage[(head + $0) % capacity] }
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
