import RxSwift

/// RxSwift 4's `Variable`: a value that can be read and set, observable as a sequence that starts
/// with the current value. Kept so that code of that era compiles; new code uses ``BehaviorRelay``.
///
/// Setting ``value`` is `accept(_:)` on the relay it wraps, so it behaves as ``BehaviorRelay``
/// does: safe from several threads, never errors. Unlike RxSwift 4's `Variable`, whose sequence
/// completed when the `Variable` was deallocated, this one never completes (a relay cannot
/// terminate); subscriptions end when they are disposed.
@available(*, deprecated, message: "Variable is deprecated; use BehaviorRelay (`value` to read, `accept(_:)` to set).")
public final class Variable<Element>: Sendable {
    /// The element type under its RxSwift 4 name.
    public typealias E = Element

    private let relay: BehaviorRelay<Element>

    /// Creates a variable holding `value`.
    public init(_ value: Element) {
        relay = BehaviorRelay(value: value)
    }

    /// The current value; setting it delivers the new value to every subscribed observer.
    public var value: Element {
        get { relay.value }
        set { relay.accept(newValue) }
    }

    /// The current value followed by every value set later; never terminates.
    public func asObservable() -> Observable<Element> {
        relay.asObservable()
    }
}
