import Synchronization

/// A group of disposables that are disposed together. Disposables added after the group was
/// disposed are disposed at once.
///
/// Thread-safety: the members live behind a `Mutex`; they are disposed after unlocking.
public final class CompositeDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// The key of a member, for ``remove(for:)``.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let key: Int
    }

    private struct State {
        var members: [Int: Disposable] = [:]
        var nextKey = 0
        var disposed = false
    }

    private let state = Mutex(State())

    /// Creates an empty group.
    public override init() {}

    /// Creates a group of two.
    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        super.init()
        _ = insert(disposable1)
        _ = insert(disposable2)
    }

    /// Creates a group of three.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        super.init()
        _ = insert(disposable1)
        _ = insert(disposable2)
        _ = insert(disposable3)
    }

    /// Creates a group of four or more.
    public init(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable,
        _ disposable4: Disposable, _ disposables: Disposable...
    ) {
        super.init()
        for disposable in [disposable1, disposable2, disposable3, disposable4] + disposables {
            _ = insert(disposable)
        }
    }

    /// Creates a group from an array.
    public init(disposables: [Disposable]) {
        super.init()
        for disposable in disposables { _ = insert(disposable) }
    }

    /// Adds `disposable`; returns its key, or `nil` (after disposing it) if the group is disposed.
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key: Int? = state.withAnnotatedLock { state in
            if state.disposed { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.members[key] = disposable
            return key
        }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(key: key)
    }

    /// The number of members.
    public var count: Int {
        state.withAnnotatedLock { $0.members.count }
    }

    /// Removes the member for `disposeKey` and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        let removed = state.withAnnotatedLock { $0.members.removeValue(forKey: disposeKey.key) }
        removed?.dispose()
    }

    /// Whether the group was disposed.
    public var isDisposed: Bool {
        state.withAnnotatedLock { $0.disposed }
    }

    /// Disposes every member, in the order they were added, and every one added later.
    public func dispose() {
        let members: [Int: Disposable] = state.withAnnotatedLock { state in
            if state.disposed { return [:] }
            state.disposed = true
            defer { state.members = [:] }
            return state.members
        }
        for key in members.keys.sorted() {
            members[key]?.dispose()
        }
    }
}
