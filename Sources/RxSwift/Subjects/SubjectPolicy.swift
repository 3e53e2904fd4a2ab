/// What distinguishes one subject from another: what it remembers of the elements it accepts and
/// what it replays to a new subscriber.
///
/// The requirements name no type built on `Element` (`Element?`, `[Element]`): a subject the library
/// makes itself (`share(replay:)`) runs unspecialized, where each would be a metadata lookup.
@usableFromInline
protocol SubjectPolicy {
    associatedtype Element

    /// Whether accepted elements are delivered at once (`AsyncSubject` holds them back).
    static var deliversElements: Bool { get }

    /// Whether ``accept(_:)`` and ``release()`` do anything; when not (`PublishSubject`), elements
    /// skip the lock.
    static var remembersElements: Bool { get }

    /// Remembers an accepted element. An element it stops remembering is moved into `replaced`
    /// (returning `true`), and storage a replay may still be reading into `retired`: the caller
    /// releases both after unlocking, as a deinitializer may call back into the subject.
    mutating func accept(
        _ element: Element, replaced: UnsafeMutablePointer<Element>, retired: inout AnyObject?
    ) -> Bool

    /// Captures, under the lock and in O(1), what a new subscriber receives first; `stopped` is the
    /// terminal event if there was one. One element is copied into `single` (uninitialized on entry;
    /// the caller delivers and destroys it); more, as a snapshot ``forEachReplayed(in:_:)`` walks.
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
