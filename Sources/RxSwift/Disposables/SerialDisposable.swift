import Synchronization

/// Holds one disposable at a time: assigning a new one disposes the previous one.
///
/// Thread-safety: the current member lives behind a `Mutex`; disposal happens after unlocking.
public final class SerialDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    private struct State {
        var current: Disposable?
        var disposed = false
    }

    private let state = Mutex(State())

    /// Creates an empty serial disposable.
    public override init() {}

    /// Whether the serial disposable was disposed.
    public var isDisposed: Bool {
        state.withAnnotatedLock { $0.disposed }
    }

    /// The current disposable. Setting it disposes the previous one; once disposed, a new value is
    /// disposed at once.
    public var disposable: Disposable {
        get {
            state.withAnnotatedLock { $0.current } ?? Disposables.create()
        }
        set {
            let previous: Disposable? = state.withAnnotatedLock { state in
                if state.disposed { return newValue }
                let previous = state.current
                state.current = newValue
                return previous
            }
            previous?.dispose()
        }
    }

    /// Disposes the current disposable and every later one.
    public func dispose() {
        let current: Disposable? = state.withAnnotatedLock { state in
            if state.disposed { return nil }
            state.disposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}
