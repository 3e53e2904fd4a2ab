/// Where a subscription keeps its upstream disposable: raw storage for one `Disposable` whose owner
/// tracks, in its own atomic flags, whether it holds one.
///
/// Why not a `Disposable?`: an optional existential is destroyed through its value witnesses even
/// when empty, each time the disposable is stored, taken, and when the sink is deallocated: a cost per
/// operator on every subscription (see the `MapFilterCreating` and `DriveCreating` benchmarks).
struct UpstreamSlot {
    private var storage: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)

    /// Stores `disposable`; the slot must be empty. `consuming` (and `setUpstream`'s too): the
    /// disposable a subscription returns is moved in; a borrowed one would be copied in (a value-witness
    /// call and a retain) and then destroyed by the caller, per operator and subscription.
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
