/// A resource that can be released, typically a subscription.
///
/// Disposables are `Sendable`: a subscription made on one thread or actor may be disposed from
/// another. `dispose()` must be idempotent.
///
/// `@preconcurrency`: code in the Swift 5 language mode may conform a non-final class with mutable
/// state (RxFeedback's `Bindings`) with no warning, as it could with RxSwift. In the Swift 6 mode
/// such a class must be `final` with `Sendable` state, or say `@unchecked Sendable` and make
/// `dispose()` safe from any thread (see RxCocoa's "Swift 6 and actors").
@preconcurrency
public protocol Disposable: Sendable {
    /// Releases the resource. Calling it more than once has no further effect.
    func dispose()
}

/// A disposable that can tell whether it was disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}
