/// The subscribers catching up with a subject or a share connection (DESIGN.md, "Who delivers"):
/// senders append to a late subscriber's queue instead of delivering to it, and it joins the
/// observers once its queue is empty. Members are unordered (one leaves in O(1): the last takes its
/// place, and its owner is told the new index); queues are held as `AnyObject` (DESIGN.md, "The hot
/// path").
///
/// Thread-safety: none; its owner guards it with its lock.
final class CatchUpRoster<Member: AnyObject> {
    @exclusivity(unchecked) private(set) var members = ContiguousArray<Member>()
    @exclusivity(unchecked) private var queues = ContiguousArray<AnyObject?>()

    var count: Int { members.count }

    /// The roster in `storage`, made there on first use (a source nobody joins late has none).
    @inline(never)
    static func inPlace(_ storage: inout CatchUpRoster<Member>?) -> CatchUpRoster<Member> {
        if let storage { return storage }
        let made = CatchUpRoster<Member>()
        storage = made
        return made
    }

    /// Adds `member` (with its first queue, if it has one already); returns its index.
    func add(_ member: Member, queue: AnyObject? = nil) -> Int {
        members.append(member)
        queues.append(queue)
        return members.count - 1
    }

    /// Removes the member at `index` and returns its queue; the last member takes its place, and
    /// `moved` is told its new index.
    func remove(at index: Int, moved: (Member, Int) -> Void) -> AnyObject? {
        let queue = queues[index]
        let last = members.count - 1
        if index != last {
            members.swapAt(index, last)
            queues.swapAt(index, last)
            moved(members[index], index)
        }
        members.removeLast()
        queues.removeLast()
        return queue
    }

    /// Takes out the queue of the member at `index`, to deliver after unlocking.
    func takeQueue(at index: Int) -> AnyObject? {
        defer { queues[index] = nil }
        return queues[index]
    }

    /// Takes out every queue (the source was disposed), to drop after unlocking.
    func takeAllQueues() -> [AnyObject] {
        var taken: [AnyObject] = []
        for index in queues.indices {
            if let queue = queues[index] { taken.append(queue) }
            queues[index] = nil
        }
        return taken
    }

    /// Appends `element` to the queue of every member whose queue has not ended.
    @inline(never)
    func append<Element>(_ element: Element) {
        for index in queues.indices {
            let queue = self.queue(at: index, of: Element.self)
            if queue.termination == nil { queue.elements.append(element) }
        }
    }

    /// Ends the queue of every member whose queue has not ended: `elements`, then `termination`.
    @inline(never)
    func append<Element>(_ termination: Termination, after elements: [Element]) {
        for index in queues.indices {
            let queue = self.queue(at: index, of: Element.self)
            guard queue.termination == nil else { continue }
            for element in elements { queue.elements.append(element) }
            queue.termination = termination
        }
    }

    private func queue<Element>(at index: Int, of _: Element.Type) -> CatchUpQueue<Element> {
        if let queue = queues[index] { return unsafeDowncast(queue, to: CatchUpQueue<Element>.self) }
        let made = CatchUpQueue<Element>()
        queues[index] = made
        return made
    }
}

/// What a source sent while one subscriber was catching up. Filled under the source's lock; the
/// subscriber takes it out under the lock and reads it alone after unlocking.
final class CatchUpQueue<Element>: @unchecked Sendable {
    let elements = ReplayBuffer<Element>()
    /// The terminal event, after every element.
    var termination: Termination?
}

/// The catching-up subscriber's loop. Under the owner's lock, `step` takes the subscriber's queue and
/// says whether it is done (joined the observers, left, or `terminated`); outside the lock, the queue
/// goes to `sink` while `wanted()`, then its terminal event; repeat until done.
@inline(__always)
func runCatchUp<Element>(
    _ sink: Sink<Element>, step: (_ terminated: Bool) -> (queue: AnyObject?, done: Bool),
    while wanted: () -> Bool
) {
    var terminated = false
    while true {
        let (taken, done) = step(terminated)
        if let taken {
            let queue = unsafeDowncast(taken, to: CatchUpQueue<Element>.self)
            queue.elements.forEach { element in
                guard wanted() else { return false }
                sink.next(element)
                return true
            }
            if let termination = queue.termination, wanted() {
                terminated = true
                sink.terminate(termination)
            }
        }
        if done { return }
    }
}
