/// A subject that remembers its latest element: a new observer receives it first, then every later
/// event.
///
/// After a terminal event, new observers receive only that terminal event.
///
/// Thread-safety: as ``PublishSubject``.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, Cancelable, ObserverType,
    SinkConvertible, @unchecked Sendable
{
    /// The observer side's type.
    public typealias SubjectObserverType = BehaviorSubject<Element>

    let core: SubjectCore<BehaviorPolicy<Element>>

    /// Creates a subject whose latest element starts as `value`.
    public init(value: Element) {
        core = SubjectCore(policy: BehaviorPolicy(value: value))
        super.init()
        #if DEBUG
            Resources.incrementTotal()
        #endif
    }

    #if DEBUG
        deinit {
            Resources.decrementTotal()
        }
    #endif

    /// The latest element.
    ///
    /// - Throws: the error the subject terminated with, or `RxError.disposed` after ``dispose()``.
    public func value() throws -> Element {
        if isDisposed { throw RxError.disposed(object: self) }
        if case .error(let error) = core.stoppedEvent { throw error }
        return core.withPolicy { $0.value }
    }

    /// Whether any observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool { core.isDisposed }

    /// Delivers `event` to every observer; a `next` also becomes the latest element.
    public func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): core.next(element)
        case .error(let error): core.terminate(.error(error))
        case .completed: core.terminate(.completed)
        }
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
        guard let key = core.subscribe(sink, owner: self) else { return Disposables.create() }
        return SubjectSubscription(core: core, key: key)
    }

    func asSink() -> AnyObject {
        SubjectInput(core)
    }
}

struct BehaviorPolicy<Element>: SubjectPolicy {
    var value: Element

    static var deliversElements: Bool { true }
    mutating func accept(_ element: Element) { value = element }
    func replay(stopped: Termination?) -> [Element] { stopped == nil ? [value] : [] }
    func elementsBefore(_ termination: Termination) -> [Element] { [] }
}
