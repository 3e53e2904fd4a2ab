/// A base class for disposables that takes part in the library's live-resource count.
open class DisposeBase: @unchecked Sendable {
    /// Counts this object as a live resource (debug builds).
    public init() {
        #if DEBUG
            Resources.incrementTotal()
        #endif
    }

    deinit {
        #if DEBUG
            Resources.decrementTotal()
        #endif
    }
}
