import Synchronization

/// A disposable whose target is assigned once, possibly after it was disposed (then the target is
/// disposed at once).
///
/// Thread-safety: the target lives behind a `Mutex`; disposal happens after unlocking.
public final class SingleAssignmentDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    private struct State {
        var target: Disposable?
        var assigned = false
        var disposed = false
    }

    private let state = Mutex(State())

    /// Creates an unassigned disposable.
    public override init() {}

    /// Whether it was disposed.
    public var isDisposed: Bool {
        state.withAnnotatedLock { $0.disposed }
    }

    /// Assigns the target. Assigning twice is a programmer error and traps.
    public func setDisposable(_ disposable: Disposable) {
        let disposeNow: Bool = state.withAnnotatedLock { state in
            precondition(!state.assigned, "SingleAssignmentDisposable: the disposable was already set")
            state.assigned = true
            if state.disposed { return true }
            state.target = disposable
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    /// Disposes the target (now, or when it is assigned).
    public func dispose() {
        let target: Disposable? = state.withAnnotatedLock { state in
            if state.disposed { return nil }
            state.disposed = true
            defer { state.target = nil }
            return state.target
        }
        target?.dispose()
    }
}
