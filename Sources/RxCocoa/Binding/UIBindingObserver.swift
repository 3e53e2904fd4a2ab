import RxSwift

/// The binder of RxCocoa 3–4, kept so that code written for it compiles: it binds elements to a
/// target object on the main scheduler, holding the target weakly, exactly as `Binder` does (it
/// forwards to one).
///
/// RxSwift: `UIBindingObserver` (RxCocoa 3–4), replaced by `Binder` in RxCocoa 4.1.
@available(*, deprecated, renamed: "Binder", message: "use Binder(target) { target, value in … }")
public struct UIBindingObserver<UIElement: AnyObject, Value>: ObserverType {
    /// The element type.
    public typealias Element = Value

    private let binder: Binder<Value>

    /// Creates an observer that runs `binding` with `UIElement` (held weakly) and each element, on
    /// the main scheduler.
    public init(
        UIElement: UIElement, binding: @escaping (UIElement, Value) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) {
        let binding =
            isolation == nil
            ? binding
            : rxIsolationChecked(
                binding, isolation, "UIBindingObserver(binding:)", callerFileID, callerLine)
        binder = Binder(UIElement, binding: binding)
    }

    /// Delivers `event` to the binding; an error is a programmer error, as for `Binder`.
    public func on(_ event: Event<Value>) {
        binder.on(event)
    }

    /// Erases the observer's type.
    public func asObserver() -> AnyObserver<Value> {
        binder.asObserver()
    }
}
