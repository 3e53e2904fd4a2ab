import Synchronization

/// Disposes its target only when it was disposed itself and every disposable handed out by
/// ``retain()`` was disposed too.
///
/// Thread-safety: the count and target live behind a `Mutex`; disposal happens after unlocking.
public final class RefCountDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    private struct State {
        var target: Disposable?
        var count = 0
        var primaryDisposed = false
    }

    private let state: Mutex<State>

    /// Creates a ref-counting wrapper around `disposable`.
    public init(disposable: Disposable) {
        state = Mutex(State(target: disposable))
    }

    /// Whether the target was disposed.
    public var isDisposed: Bool {
        state.withAnnotatedLock { $0.target == nil }
    }

    /// Returns a dependent disposable; the target stays alive until it is disposed.
    public func retain() -> Disposable {
        let retained: Bool = state.withAnnotatedLock { state in
            guard state.target != nil else { return false }
            state.count += 1
            return true
        }
        guard retained else { return Disposables.create() }
        return Disposables.create { [self] in self.release() }
    }

    /// Disposes the primary reference; the target is disposed once no dependent is left.
    public func dispose() {
        let target: Disposable? = state.withAnnotatedLock { state in
            guard state.target != nil, !state.primaryDisposed else { return nil }
            state.primaryDisposed = true
            guard state.count == 0 else { return nil }
            defer { state.target = nil }
            return state.target
        }
        target?.dispose()
    }

    private func release() {
        let target: Disposable? = state.withAnnotatedLock { state in
            guard state.target != nil else { return nil }
            precondition(state.count > 0, "RefCountDisposable: released more often than retained")
            state.count -= 1
            guard state.count == 0, state.primaryDisposed else { return nil }
            defer { state.target = nil }
            return state.target
        }
        target?.dispose()
    }
}
