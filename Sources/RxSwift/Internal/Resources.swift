import Synchronization

/// Live-resource counting for leak checks.
///
/// In debug builds every live subscription (sink), subject and scheduled item is counted, with no
/// build flag needed; RxTest asserts that a test ends with the count it started with. Release builds
/// count nothing and pay nothing: ``total`` is always 0 there.
public enum Resources {
    private static let counter = Atomic<Int32>(0)

    /// The number of live resources (debug builds only; 0 in release builds).
    public static var total: Int32 {
        counter.load(ordering: .acquiring)
    }

    /// Counts one more live resource (debug builds only). For custom resources that want to be part
    /// of leak checks.
    @discardableResult
    public static func incrementTotal() -> Int32 {
        #if DEBUG
            return counter.wrappingAdd(1, ordering: .relaxed).newValue
        #else
            return 0
        #endif
    }

    /// Counts one fewer live resource (debug builds only).
    @discardableResult
    public static func decrementTotal() -> Int32 {
        #if DEBUG
            return counter.wrappingSubtract(1, ordering: .releasing).newValue
        #else
            return 0
        #endif
    }
}
