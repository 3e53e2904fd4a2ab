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
    ///
    /// A policy that has to let go of storage a new subscriber's replay may still be reading moves
    /// it into `retired`, which the caller also releases after unlocking.
    mutating func accept(
        _ element: Element, replaced: UnsafeMutablePointer<Element>, retired: inout AnyObject?
    ) -> Bool

    /// Captures, under the lock and in O(1), what a new subscriber receives first; `stopped` is the
    /// terminal event if there was one. One element is copied into `single` (uninitialized on
    /// entry; the caller delivers and destroys it); more are captured as a snapshot object that
    /// ``forEachReplayed(in:_:)`` walks after unlocking. Neither names a type that depends on
    /// `Element`, which in unspecialized code (`[Element]`, say) costs run-time metadata lookups.
    func captureReplay(stopped: Termination?, into single: UnsafeMutablePointer<Element>) -> ReplayCapture

    /// Calls `body` with the elements of a snapshot made by ``captureReplay(stopped:into:)``, oldest
    /// first, until it returns `false`.
    static func forEachReplayed(in snapshot: AnyObject, _ body: (Element) -> Bool)

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
    @usableFromInline
    static func forEachReplayed(in snapshot: AnyObject, _ body: (Element) -> Bool) {}
}

/// What ``SubjectPolicy/captureReplay(stopped:into:)`` captured.
@usableFromInline
enum ReplayCapture {
    case nothing
    /// One element, in the slot the caller passed.
    case single
    /// A snapshot of the remembered elements, for ``SubjectPolicy/forEachReplayed(in:_:)``.
    case snapshot(AnyObject)
}
