import Synchronization

/// A group of disposables that are disposed together. Disposables added after the group was
/// disposed are disposed at once.
///
/// The members are kept in an array in insertion order, with their keys, which only grow: disposing
/// walks it once (no copy of a dictionary, no sorting of its keys), inserting appends, and removing
/// finds the key by binary search and leaves an empty slot, so that the order holds; the slots are
/// compacted once more than half are empty.
///
/// Thread-safety: the members live behind a `Mutex`; they are disposed after unlocking.
public final class CompositeDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// The key of a member, for ``remove(for:)``.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let key: Int
    }

    private struct Member {
        let key: Int
        /// `nil` once removed.
        var disposable: Disposable?
    }

    private struct State {
        /// In insertion order, so by increasing key.
        var members: ContiguousArray<Member> = []
        /// How many of `members` were removed.
        var vacant = 0
        var nextKey = 0
        var disposed = false

        /// Takes the member for `key` out, if it is there.
        mutating func remove(key: Int) -> Disposable? {
            var low = 0
            var high = members.count
            while low < high {
                let middle = (low + high) / 2
                if members[middle].key < key { low = middle + 1 } else { high = middle }
            }
            guard low < members.count, members[low].key == key, let removed = members[low].disposable else {
                return nil
            }
            members[low].disposable = nil
            vacant += 1
            if vacant > members.count / 2 {
                members.removeAll { $0.disposable == nil }
                vacant = 0
            }
            return removed
        }
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
            state.members.append(Member(key: key, disposable: disposable))
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
        state.withAnnotatedLock { $0.members.count - $0.vacant }
    }

    /// Removes the member for `disposeKey` and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        let removed = state.withAnnotatedLock { $0.remove(key: disposeKey.key) }
        removed?.dispose()
    }

    /// Whether the group was disposed.
    public var isDisposed: Bool {
        state.withAnnotatedLock { $0.disposed }
    }

    /// Disposes every member, in the order they were added, and every one added later.
    public func dispose() {
        let members: ContiguousArray<Member> = state.withAnnotatedLock { state in
            if state.disposed { return [] }
            state.disposed = true
            state.vacant = 0
            defer { state.members = [] }
            return state.members
        }
        // Called in place: `for member in members` would copy each member's existential through its
        // value witnesses (see the Scaling `CompositeDisposable` benchmark).
        for index in members.indices {
            members[index].disposable?.dispose()
        }
    }
}
