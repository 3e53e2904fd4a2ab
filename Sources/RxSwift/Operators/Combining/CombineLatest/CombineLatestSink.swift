/// The rules of `combineLatest`, as RxSwift's: a result on every element once every source has one;
/// completion when every source completed, or when an element arrives while every source without a
/// value has completed; the first error ends everything. Subclasses build a result from the latest
/// values, kept in typed slots of one raw allocation per subscription (DESIGN.md, "The hot path");
/// ``hasValue`` says which slots hold one. Both belong to the claim's holder (and `deinit`).
@usableFromInline
class CombineLatestSink<Output>: CombiningSink<Output>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) private(set) final var hasValue: CombiningFlags
    /// Whether every value type is trivial: then tear-down destroys nothing.
    private let valuesAreTrivial: Bool

    init(arity: Int, valuesAreTrivial: Bool, downstream: Sink<Output>) {
        hasValue = CombiningFlags(arity: arity)
        self.valuesAreTrivial = valuesAreTrivial
        super.init(arity: arity, downstream: downstream)
    }

    /// The result for the sources' latest values; called only when all have one.
    func combine() throws -> Output {
        rxAbstractMethod()
    }

    /// Forwards the result for the latest values (all present). The arity forms override it with a
    /// closure written where the element types are concrete.
    @usableFromInline
    func combineAndForward() throws {
        forward(try combine())
    }

    /// Destroys the value in slot `index`; called for each slot that holds one.
    func destroyValue(at index: Int) {
        rxAbstractMethod()
    }

    /// Subscribes `sink` to `source`, or delivers a constant source (given no sink) into `slot` at once.
    /// `holding`: whether the subscribing thread holds the claim from the previous source (a run of
    /// constant sources is delivered under one claim); returns whether it still does. The caller calls
    /// ``leave()`` after the last source if it holds it.
    @inlinable
    final func attach<Element>(
        _ source: Observable<Element>, _ sink: CombineLatestSource<Element, Output>?,
        slot: UnsafeMutablePointer<Element>, index: Int, holding: Bool
    ) -> Bool {
        if let sink {
            // A subscription may deliver from other threads at once: the claim goes back first.
            if holding { leave() }
            sink.attach(to: source)
            return false
        }
        if !holding {
            guard isForwarding else { return false }
            guard enter() else {
                attachConstantLater(source, slot: slot, index: index)
                return false
            }
        }
        guard isForwarding else { return true }
        if let termination = source.deliverConstant({ store($0, in: slot, index: index) }) {
            sourceEnded(index, termination)
        }
        return true
    }

    /// A constant source met while another thread holds the claim: its events wait for that thread.
    @usableFromInline @inline(never)
    func attachConstantLater<Element>(_ source: Observable<Element>, slot: UnsafeMutablePointer<Element>, index: Int) {
        let termination = source.deliverConstant { element in
            enqueue { [self] in store(element, in: slot, index: index) }
        }
        guard let termination else { return }
        enqueue { [self] in sourceEnded(index, termination) }
    }

    /// Stores source `index`'s element and reacts; by the holder. Inlinable, for concrete element types.
    @inlinable
    final func store<Element>(_ element: Element, in slot: UnsafeMutablePointer<Element>, index: Int) {
        guard isForwarding else { return }
        if hasValue[index] {
            slot.pointee = element
        } else {
            slot.initialize(to: element)
            _ = hasValue.set(index)
        }
        if hasValue.allSet {
            do {
                try combineAndForward()
            } catch {
                forwardTermination(.error(error))
            }
        } else if isDone.allSet(except: index) {
            forwardTermination(.completed)
        }
    }

    /// Destroys every value held (at tear-down by the holder, or in `deinit`).
    final func destroyValues() {
        guard hasValue.count > 0 else { return }
        guard !valuesAreTrivial else {
            hasValue.clear()
            return
        }
        for index in 0..<hasValue.arity where hasValue[index] {
            destroyValue(at: index)
        }
        hasValue.clear()
    }
}

/// A source of `combineLatest` that needs a subscription: stores its elements in its slot.
@usableFromInline
final class CombineLatestSource<Element, Output>: CombiningSource<Element, Output>, @unchecked Sendable {
    private let slot: UnsafeMutablePointer<Element>

    @usableFromInline
    init(parent: CombineLatestSink<Output>, index: Int, slot: UnsafeMutablePointer<Element>) {
        self.slot = slot
        super.init(parent: parent, index: index)
    }

    private var combineParent: CombineLatestSink<Output> {
        unsafeDowncast(parent, to: CombineLatestSink<Output>.self)
    }

    override func receive(_ element: Element) {
        combineParent.store(element, in: slot, index: index)
    }

    override func received(_ termination: Termination) {
        combineParent.sourceEnded(index, termination)
    }
}

/// The layout of a combining sink's value slots in one raw allocation.
@usableFromInline
struct SlotLayout {
    @usableFromInline private(set) var size = 0
    @usableFromInline private(set) var alignment = 1

    @inlinable
    init() {}

    /// Adds a slot for a `Value`; returns its offset (worked out at compile time where inlined).
    @inlinable
    mutating func add<Value>(_: Value.Type) -> Int {
        let align = MemoryLayout<Value>.alignment
        let offset = (size + align - 1) / align * align
        size = offset + MemoryLayout<Value>.size
        alignment = Swift.max(alignment, align)
        return offset
    }

    /// Allocates the storage (at least one byte); released with `RawMemory.deallocate`.
    func allocate() -> UnsafeMutableRawPointer {
        RawMemory.allocate(byteCount: size, alignment: alignment)
    }
}
