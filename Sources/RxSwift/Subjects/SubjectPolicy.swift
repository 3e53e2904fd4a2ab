/// What distinguishes one subject from another: what it remembers of the elements it accepts and
/// what it replays to a new subscriber.
@usableFromInline
protocol SubjectPolicy {
    associatedtype Element

    /// Whether accepted elements are delivered at once (`AsyncSubject` holds them back).
    static var deliversElements: Bool { get }

    /// Whether ``accept(_:)`` and ``release()`` do anything. `PublishSubject`'s policy remembers
    /// nothing, so its elements skip the lock entirely.
    static var remembersElements: Bool { get }

    /// Remembers an accepted element. If it stops remembering another, it moves that one into
    /// `replaced` and returns `true`, so that the caller releases it after unlocking (its
    /// deinitializer may call back into the subject). A pointer rather than an `Element?` result:
    /// in unspecialized code (a subject made inside the library, as `share(replay:)` makes one) an
    /// `Optional<Element>` costs a run-time metadata lookup per element.
    mutating func accept(_ element: Element, replaced: UnsafeMutablePointer<Element>) -> Bool

    /// The elements a new subscriber receives first; `stopped` is the terminal event if there was one.
    func replay(stopped: Termination?) -> [Element]

    /// The elements delivered to every observer just before `termination`.
    func elementsBefore(_ termination: Termination) -> [Element]

    /// Drops what the policy remembers, when the subject is disposed.
    mutating func release()
}

extension SubjectPolicy {
    @usableFromInline
    static var remembersElements: Bool { true }
    @usableFromInline
    mutating func release() {}
}
