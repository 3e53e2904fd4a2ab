/// A subject that remembers its latest element: a new observer receives it first, then every later
/// event.
///
/// After a terminal event, new observers receive only that terminal event. After ``dispose()``,
/// events are ignored and new observers receive `RxError.disposed`.
///
/// As in RxSwift, `subscribe` delivers the latest element on the subscribing thread before it
/// returns, also while another event is being delivered (re-entrantly from an observer, or from
/// another thread); events accepted meanwhile follow, in order (see "Contracts").
///
/// Thread-safety: as ``PublishSubject``.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType,
    SinkConvertible, @unchecked Sendable
{
    /// The observer side's type.
    public typealias SubjectObserverType = BehaviorSubject<Element>

    @usableFromInline let core: SubjectCore<BehaviorPolicy<Element>>

    /// Creates a subject whose latest element starts as `value`.
    @inlinable
    public init(value: Element) {
        core = SubjectCore(policy: BehaviorPolicy(value: value))
        super.init()
    }

    /// The latest element.
    ///
    /// - Throws: the error the subject terminated with, or `RxError.disposed` after ``dispose()``.
    public func value() throws -> Element {
        let state: Result<Element, any Swift.Error> = core.withState { policy, stopped, disposed in
            if disposed { return .failure(RxError.disposed(object: self)) }
            if case .error(let error) = stopped { return .failure(error) }
            return .success(policy.value)
        }
        return try state.get()
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool { core.isDisposed }

    /// Delivers `event` to every observer; a `next` also becomes the latest element.
    @inlinable
    public func on(_ event: Event<Element>) {
        core.on(event)
    }

    /// Delivers `element` to every observer (without building an `Event`).
    public func onNext(_ element: Element) {
        core.next(element)
    }

    /// Returns the subject itself.
    public func asObserver() -> BehaviorSubject<Element> {
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
struct BehaviorPolicy<Element>: SubjectPolicy {
    var value: Element

    @usableFromInline
    init(value: Element) {
        self.value = value
    }

    @usableFromInline
    static var deliversElements: Bool { true }
    @usableFromInline
    mutating func accept(
        _ element: Element, replaced: UnsafeMutablePointer<Element>, retired: inout AnyObject?
    ) -> Bool {
        replaced.initialize(to: value)
        value = element
        return true
    }
    @usableFromInline
    func captureReplay(stopped: Termination?, into single: UnsafeMutablePointer<Element>) -> ReplayCapture {
        guard stopped == nil else { return .nothing }
        single.initialize(to: value)
        return .single
    }
    @usableFromInline
    func elementsBefore(_ termination: Termination) -> [Element] { [] }
}
