/// A resource that can be released, typically a subscription.
///
/// Disposables are `Sendable`: a subscription made on one thread or actor may be disposed from
/// another. `dispose()` must be idempotent.
public protocol Disposable: Sendable {
    /// Releases the resource. Calling it more than once has no further effect.
    func dispose()
}

/// A disposable that can tell whether it was disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}
