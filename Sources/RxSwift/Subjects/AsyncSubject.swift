/// A subject that delivers only its last element, and only when it completes: observers receive
/// that element followed by `completed` (or just the error). Late observers receive the same.
///
/// Thread-safety: as ``PublishSubject``.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, SinkConvertible,
    @unchecked Sendable
{
    /// The observer side's type.
    public typealias SubjectObserverType = AsyncSubject<Element>

    @usableFromInline let core: SubjectCore<AsyncPolicy<Element>>

    /// Creates a subject.
    @inlinable
    public override init() {
        core = SubjectCore(policy: AsyncPolicy())
        super.init()
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Remembers a `next`; on `completed` delivers the last element and `completed`; delivers errors.
    @inlinable
    public func on(_ event: Event<Element>) {
        core.on(event)
    }

    /// Returns the subject itself.
    public func asObserver() -> AsyncSubject<Element> {
        self
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
struct AsyncPolicy<Element>: SubjectPolicy {
    var last: Element?

    @usableFromInline
    init() {}

    @usableFromInline
    static var deliversElements: Bool { false }
    @usableFromInline
    mutating func accept(
        _ element: Element, replaced: UnsafeMutablePointer<Element>, retired: inout AnyObject?
    ) -> Bool {
        guard let previous = last else {
            last = element
            return false
        }
        replaced.initialize(to: previous)
        last = element
        return true
    }

    @usableFromInline
    func captureReplay(stopped: Termination?, into single: UnsafeMutablePointer<Element>) -> ReplayCapture {
        guard case .completed = stopped, let last else { return .nothing }
        single.initialize(to: last)
        return .single
    }

    @usableFromInline
    func elementsBefore(_ termination: Termination) -> [Element] {
        guard case .completed = termination, let last else { return [] }
        return [last]
    }
}
