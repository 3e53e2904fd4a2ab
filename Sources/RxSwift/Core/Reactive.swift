/// The `.rx` namespace: reactive extensions of a base type live in `extension Reactive where Base: …`.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The extended value.
    public let base: Base

    /// Creates the namespace for `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// Turns every property of a class into a ``Binder`` through `base.rx.property`.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property>
    where Base: AnyObject {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}

extension Reactive: Sendable where Base: Sendable {}

/// A type that has the `.rx` namespace.
public protocol ReactiveCompatible {
    /// The extended type.
    associatedtype ReactiveBase

    /// Reactive extensions of the type.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// Reactive extensions of the value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// Reactive extensions of the type.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // Setting is allowed so that `rx` can be used on mutable values, as in RxSwift.
        set {}
    }

    /// Reactive extensions of the value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        set {}
    }
}
