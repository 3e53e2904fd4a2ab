/// Where a subscription keeps its upstream disposable: raw storage for one `Disposable` whose owner
/// tracks, in its own atomic flags, whether it holds one (not a `Disposable?`, which costs value-witness
/// calls even when empty: the `MapFilterCreating` benchmark).
struct UpstreamSlot {
    private var storage: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)

    /// Stores `disposable`; the slot must be empty. `consuming`, so that it is moved in, not copied.
    mutating func store(_ disposable: consuming Disposable) {
        let moved = consume disposable
        withUnsafeMutablePointer(to: &storage) {
            _ = UnsafeMutableRawPointer($0).initializeMemory(as: Disposable.self, to: moved)
        }
    }

    /// Moves the disposable out; the slot must hold one, and is empty afterwards.
    @inline(__always)
    mutating func take() -> Disposable {
        withUnsafeMutablePointer(to: &storage) {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: Disposable.self).move()
        }
    }
}
