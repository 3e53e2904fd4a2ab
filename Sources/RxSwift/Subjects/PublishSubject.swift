/// A subject that delivers to each observer the events that happen after it subscribed.
///
/// After a terminal event, new observers receive only that terminal event. After ``dispose()``,
/// events are ignored and new observers receive `RxError.disposed`.
///
/// Thread-safety: `onNext` and friends may be called from several threads and re-entrantly from an
/// observer; events are serialized by a drain loop (see "Contracts"), never by blocking.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType,
    SinkConvertible, @unchecked Sendable
{
    /// The observer side's type.
    public typealias SubjectObserverType = PublishSubject<Element>

    @usableFromInline let core: SubjectCore<PublishPolicy<Element>>

    /// Creates a subject. Inlinable, so that the core's generic type is instantiated in the caller's
    /// module, once, rather than looked up at run time for every new subject.
    @inlinable
    public override init() {
        core = SubjectCore(policy: PublishPolicy())
        super.init()
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool { core.isDisposed }

    /// Delivers `event` to every observer.
    @inlinable
    public func on(_ event: Event<Element>) {
        core.on(event)
    }

    /// Delivers `element` to every observer (without building an `Event`).
    public func onNext(_ element: Element) {
        core.next(element)
    }

    /// Returns the subject itself.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    /// Releases every observer; later events are ignored.
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
struct PublishPolicy<Element>: SubjectPolicy {
    @usableFromInline
    init() {}

    @usableFromInline
    static var deliversElements: Bool { true }
    @usableFromInline
    static var remembersElements: Bool { false }
    @usableFromInline
    mutating func accept(
        _ element: Element, replaced: UnsafeMutablePointer<Element>, retired: inout AnyObject?
    ) -> Bool { false }
    @usableFromInline
    func captureReplay(stopped: Termination?, into single: UnsafeMutablePointer<Element>) -> ReplayCapture {
        .nothing
    }
    @usableFromInline
    func elementsBefore(_ termination: Termination) -> [Element] { [] }
}

/// Feeds a subject from the internal pipeline without building `Event`s (`source.subscribe(subject)`).
/// It holds the subject itself, as an observer does in RxSwift: a subject fed by a source lives as
/// long as that subscription.
final class SubjectInput<Policy: SubjectPolicy>: Sink<Policy.Element>, @unchecked Sendable {
    private let core: SubjectCore<Policy>
    private let subject: AnyObject

    init(_ core: SubjectCore<Policy>, subject: AnyObject) {
        self.core = core
        self.subject = subject
    }

    override func next(_ element: Policy.Element) {
        core.next(element)
    }

    override func terminate(_ termination: Termination) {
        core.terminate(termination)
    }
}
