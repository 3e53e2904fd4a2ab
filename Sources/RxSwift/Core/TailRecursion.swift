import Synchronization

#if DEBUG
    private let deepestTailRecursiveSinkStack = Atomic<Int>(0)

    /// The deepest stack of source iterators that `concat`, `catch(sequence:)` and `retry` have held
    /// while flattening nested operators of their own kind (tail recursion), as RxSwift's
    /// `TailRecursiveSink` counts it: it is recorded each time a nested sequence's iterator is pushed,
    /// and counts the iterators then held. A chain nested in the last place of collections stays at 1
    /// (RxSwift's `testConcat_TailRecursionCollection`); nested in sequences of unknown length it
    /// grows with the depth (`testConcat_TailRecursionSequence`). Tests reset it to 0 and read it
    /// afterwards; it is global, so read it only where nothing else runs. Debug builds only.
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
