/// Where a subscription keeps its upstream disposable: raw storage for one `Disposable` whose owner
/// tracks, in its own atomic flags, whether it holds one.
///
/// Why not a `Disposable?`: an optional existential is destroyed through its value witnesses even
/// when empty, which cost about 40 instructions per sink each time (when the disposable was stored,
/// when it was taken, and when the sink was deallocated); see Benchmarks/README.md.
struct UpstreamSlot {
    private var storage: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)

    /// Stores `disposable`; the slot must be empty. `consuming` (and `setUpstream`'s too): the
    /// disposable a subscription returns is moved in, where a borrowed one was copied in and then
    /// destroyed by the caller, about 70 instructions per sink.
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
