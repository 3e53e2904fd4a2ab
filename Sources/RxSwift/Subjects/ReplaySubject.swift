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
    var buffer = Queue<Element>()

    @usableFromInline
    init(bufferSize: Int?) {
        self.bufferSize = bufferSize
    }

    @usableFromInline
    static var deliversElements: Bool { true }

    @usableFromInline
    mutating func accept(_ element: Element) -> Element? {
        if bufferSize == 0 { return nil }
        buffer.enqueue(element)
        if let bufferSize, buffer.count > bufferSize { return buffer.dequeue() }
        return nil
    }

    @usableFromInline
    func replay(stopped: Termination?) -> [Element] { buffer.elements }
    @usableFromInline
    mutating func release() { buffer.removeAll() }
    @usableFromInline
    func elementsBefore(_ termination: Termination) -> [Element] { [] }
}
