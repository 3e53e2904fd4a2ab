/// The rules of `zip`, as RxSwift's: each source's elements queue (a completed source's still pair);
/// when every queue has one, the oldest are combined; completion when every source completed; the
/// first error ends everything. The collection form (`completesEarly`) also completes when an element
/// can never be paired; the arity forms do not, as in RxSwift (its issue #1666).
@usableFromInline
class ZipSink<Output>: CombiningSink<Output>, @unchecked Sendable {
    /// How many elements each source has waiting; the holder's.
    @exclusivity(unchecked) private var queued: [Int]
    private let completesEarly: Bool

    @usableFromInline
    init(arity: Int, completesEarly: Bool, downstream: Sink<Output>) {
        queued = Array(repeating: 0, count: arity)
        self.completesEarly = completesEarly
        super.init(arity: arity, downstream: downstream)
    }

    /// Takes and combines the oldest element of every queue; only when every queue has one.
    func combineNext() throws -> Output {
        rxAbstractMethod()
    }

    /// Source `index` queued an element; by the holder.
    final func sourceReceived(_ index: Int) {
        guard isForwarding else { return }
        queued[index] += 1
        if queued.allSatisfy({ $0 > 0 }) {
            for source in queued.indices { queued[source] -= 1 }
            let result: Output
            do {
                result = try combineNext()
            } catch {
                forwardTermination(.error(error))
                return
            }
            forward(result)
        } else if completesEarly && isDone.allSet(except: index) {
            forwardTermination(.completed)
        }
    }
}

/// A source of `zip`: queues its elements in a ring of raw memory, not a `Queue<Element>` (the
/// `7 nested 4-way zip` benchmark; DESIGN.md, "The hot path").
@usableFromInline
final class ZipSource<Element, Output>: CombiningSource<Element, Output>, @unchecked Sendable {
    // The parent's holder's.
    @exclusivity(unchecked) private var ring: UnsafeMutableRawPointer?
    /// A power of two (or 0 before the first element).
    @exclusivity(unchecked) private var capacity = 0
    @exclusivity(unchecked) private var head = 0
    @exclusivity(unchecked) private var count = 0

    private var zipParent: ZipSink<Output> {
        unsafeDowncast(parent, to: ZipSink<Output>.self)
    }

    deinit {
        guard let ring else { return }
        let elements = ring.assumingMemoryBound(to: Element.self)
        for offset in 0..<count {
            (elements + ((head + offset) & (capacity - 1))).deinitialize(count: 1)
        }
        RawMemory.deallocate(ring)
    }

    override func receive(_ element: Element) {
        guard parent.isForwarding else { return }
        if count == capacity { grow() }
        let elements = ring.unsafelyUnwrapped.assumingMemoryBound(to: Element.self)
        (elements + ((head + count) & (capacity - 1))).initialize(to: element)
        count += 1
        zipParent.sourceReceived(index)
    }

    override func received(_ termination: Termination) {
        zipParent.sourceEnded(index, termination)
    }

    /// Takes the oldest queued element; only when the parent knows there is one.
    func dequeue() -> Element {
        let elements = ring.unsafelyUnwrapped.assumingMemoryBound(to: Element.self)
        let element = (elements + head).move()
        head = (head + 1) & (capacity - 1)
        count -= 1
        return element
    }

    /// Doubles the ring (4 to start), moving the queued elements to its front in order.
    @inline(never)
    private func grow() {
        let newCapacity = Swift.max(4, capacity * 2)
        let newRing = RawMemory.allocate(
            byteCount: newCapacity * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
        let target = newRing.bindMemory(to: Element.self, capacity: newCapacity)
        if let ring {
            let elements = ring.assumingMemoryBound(to: Element.self)
            for offset in 0..<count {
                (target + offset).moveInitialize(from: elements + ((head + offset) & (capacity - 1)), count: 1)
            }
            RawMemory.deallocate(ring)
        }
        ring = newRing
        capacity = newCapacity
        head = 0
    }
}
