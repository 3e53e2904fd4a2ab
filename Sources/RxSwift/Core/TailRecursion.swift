import Synchronization

#if DEBUG
    private let deepestTailRecursiveSinkStack = Atomic<Int>(0)

    /// The deepest stack of nested subscriptions that the operators which subscribe to their next
    /// source from the previous source's completion (`concat`, `catch` sequences, `retry`) have
    /// reached. RxSwift's tests read it to check that such chains do not grow the stack. Debug builds
    /// only.
    public var maxTailRecursiveSinkStackSize: Int {
        get { deepestTailRecursiveSinkStack.load(ordering: .relaxed) }
        set { deepestTailRecursiveSinkStack.store(newValue, ordering: .relaxed) }
    }

    /// Raises ``maxTailRecursiveSinkStackSize`` to `depth` if it is deeper.
    func recordTailRecursiveSinkStackSize(_ depth: Int) {
        var current = deepestTailRecursiveSinkStack.load(ordering: .relaxed)
        while depth > current {
            let (exchanged, original) = deepestTailRecursiveSinkStack.compareExchange(
                expected: current, desired: depth, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
#endif
