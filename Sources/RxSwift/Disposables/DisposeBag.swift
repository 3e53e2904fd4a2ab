import Synchronization

/// Collects disposables and disposes them all when the bag is deallocated.
///
/// Replace a bag (`bag = DisposeBag()`) to dispose what it holds early. A disposable inserted into
/// a bag that is being deallocated is disposed at once.
///
/// Thread-safety: the contents live behind a `Mutex`; they are disposed after unlocking. The bag is
/// `Sendable`, so a `@MainActor` type can own one and nonisolated code can insert into it.
public final class DisposeBag: DisposeBase, @unchecked Sendable {
    private struct State {
        var disposables: [Disposable] = []
        var disposed = false
    }

    private let state = Mutex(State())

    /// Creates an empty bag.
    public override init() {}

    /// Creates a bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init(disposing: disposables)
    }

    /// Creates a bag holding `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        insert(disposables)
    }

    /// Creates a bag holding the disposables built by `builder`.
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds `disposable` to the bag.
    public func insert(_ disposable: Disposable) {
        insert([disposable])
    }

    /// Adds all `disposables` to the bag.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds the disposables built by `builder`.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Adds all `disposables` to the bag.
    public func insert(_ disposables: [Disposable]) {
        let rejected: Bool = state.withAnnotatedLock { state in
            if state.disposed { return true }
            state.disposables.append(contentsOf: disposables)
            return false
        }
        if rejected {
            for disposable in disposables { disposable.dispose() }
        }
    }

    private func dispose() {
        let disposables: [Disposable] = state.withAnnotatedLock { state in
            state.disposed = true
            defer { state.disposables = [] }
            return state.disposables
        }
        for disposable in disposables { disposable.dispose() }
    }

    deinit {
        dispose()
    }

    /// Builds an array of disposables from a block of expressions.
    @resultBuilder
    public struct DisposableBuilder {
        /// Collects the block's disposables.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`, which disposes it when the bag is deallocated.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
