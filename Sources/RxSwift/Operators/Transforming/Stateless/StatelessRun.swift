// Long runs of `map` and `filter`: one observable, one sink, a loop (see `StatelessChains.swift`, which
// says when a chain becomes a run and why).
//
// A run holds the stages' closures and its root (the first source that is not a `map` or `filter`),
// never the folded operators. The operator that folds the run stays an operator over it, so that the
// chain's depth never exceeds the threshold plus one.

/// How many `map`/`filter` operators are stacked as themselves before the next one folds them into
/// a run. Small enough that subscribing, delivering through and releasing them takes a few
/// kilobytes of stack; large enough that no chain written by hand reaches it. A computed constant:
/// a stored global would be read through its lazy initializer's once-check by every operator.
var runThreshold: Int { 32 }

/// What a stage did with the value in its input slot.
@usableFromInline
enum RunStageOutcome {
    /// Consumed it and wrote its result into the output slot (`map`).
    case moved
    /// Left it in place to go on (`filter` passed it).
    case kept
    /// Consumed it; the element goes no further (`filter` rejected it).
    case dropped
}

/// One stage of a run, type-erased: it reads its input from the first slot and may write its output
/// into the second. On a throw the input slot has been consumed.
///
/// Made by the operators' factories in the caller's module (see `StatelessChains.swift`), where the
/// element types are concrete: made here, a stage would move each element through value witnesses.
@usableFromInline
struct RunStage {
    @usableFromInline let apply: (UnsafeMutableRawPointer, UnsafeMutableRawPointer) throws -> RunStageOutcome
    /// Destroys a value of the stage's output type (for an element in flight when the run stops).
    @usableFromInline let destroyOutput: (UnsafeMutableRawPointer) -> Void
    @usableFromInline let outputStride: Int
    @usableFromInline let outputAlignment: Int

    @usableFromInline
    init(
        apply: @escaping (UnsafeMutableRawPointer, UnsafeMutableRawPointer) throws -> RunStageOutcome,
        destroyOutput: @escaping (UnsafeMutableRawPointer) -> Void, outputStride: Int, outputAlignment: Int
    ) {
        self.apply = apply
        self.destroyOutput = destroyOutput
        self.outputStride = outputStride
        self.outputAlignment = outputAlignment
    }

    @inlinable
    static func map<Source, Result>(_ transform: @escaping (Source) throws -> Result) -> RunStage {
        RunStage(
            apply: { input, output in
                let value = input.assumingMemoryBound(to: Source.self).move()
                output.assumingMemoryBound(to: Result.self).initialize(to: try transform(value))
                return .moved
            },
            destroyOutput: { $0.assumingMemoryBound(to: Result.self).deinitialize(count: 1) },
            outputStride: MemoryLayout<Result>.stride, outputAlignment: MemoryLayout<Result>.alignment)
    }

    @inlinable
    static func filter<Element>(_ predicate: @escaping (Element) throws -> Bool) -> RunStage {
        RunStage(
            apply: { input, _ in
                let slot = input.assumingMemoryBound(to: Element.self)
                let passes: Bool
                do {
                    passes = try predicate(slot.pointee)
                } catch {
                    slot.deinitialize(count: 1)
                    throw error
                }
                if passes { return .kept }
                slot.deinitialize(count: 1)
                return .dropped
            },
            destroyOutput: { $0.assumingMemoryBound(to: Element.self).deinitialize(count: 1) },
            outputStride: MemoryLayout<Element>.stride, outputAlignment: MemoryLayout<Element>.alignment)
    }
}

/// A run's stages, last first: appending a stage is O(1) and shares what came before, so a chain
/// folded one operator at a time costs O(n) in all.
///
/// Released iteratively: a recursive release of 100 000 nodes would overflow the stack.
///
/// Made by the operators' factories, unlinked; the fold links it (``link(after:)``) before anyone
/// else sees it.
@usableFromInline
final class RunStageNode: @unchecked Sendable {
    let stage: RunStage
    @exclusivity(unchecked) private var previous: RunStageNode?
    @exclusivity(unchecked) private(set) var count = 1

    @usableFromInline
    init(stage: RunStage) {
        self.stage = stage
    }

    /// Puts this new node after `previous` (the stages that run before it); returns it.
    func link(after previous: RunStageNode?) -> RunStageNode {
        self.previous = previous
        count = (previous?.count ?? 0) + 1
        return self
    }

    /// The stages in the order they run.
    func stagesInOrder() -> ContiguousArray<RunStage> {
        var stages = ContiguousArray<RunStage>()
        stages.reserveCapacity(count)
        var node: RunStageNode? = self
        while let current = node {
            stages.append(current.stage)
            node = current.previous
        }
        stages.reverse()
        return stages
    }

    deinit {
        var node = previous.take()
        while var current = node.take() {
            // Shared with another run: that run releases the rest.
            guard isKnownUniquelyReferenced(&current) else { return }
            node = current.previous.take()
        }
    }
}

/// A `map` or `filter` operator, or a run, seen as stages over a root source.
struct RunParts {
    let root: any RunRoot
    let last: RunStageNode?
}

/// A source at the root of a run: it makes the run, where its element type is known.
protocol RunRoot {
    func makeRun<Output>(last: RunStageNode, output: Output.Type) -> Observable<Output>
}

extension Observable: RunRoot {
    func makeRun<Output>(last: RunStageNode, output: Output.Type) -> Observable<Output> {
        StatelessRunObservable<Element, Output>(root: self, last: last)
    }

    /// This `map`/`filter` chain as one run over its root (called once it is `runThreshold` deep):
    /// O(1) when the chain below is a run already.
    @inline(never)
    func foldedIntoRun() -> Observable<Element> {
        guard let parts = runParts(), let last = parts.last else { return self }
        return parts.root.makeRun(last: last, output: Element.self)
    }
}

/// A run of `map`/`filter` stages over `root`.
final class StatelessRunObservable<Root, Output>: Observable<Output>, @unchecked Sendable {
    private let root: Observable<Root>
    private let last: RunStageNode

    init(root: Observable<Root>, last: RunStageNode) {
        self.root = root
        self.last = last
        // Operators stack over a run as over any other source, and the next fold takes the run's
        // stages along: a chain is folded once per `runThreshold` operators, not once per operator.
        super.init()
    }

    override func runParts() -> RunParts? {
        RunParts(root: root, last: last)
    }

    override func subscribe(sink downstream: Sink<Output>) -> Disposable {
        let sink = StatelessRunSink<Root, Output>(stages: last.stagesInOrder(), downstream: downstream)
        sink.setUpstream(root.subscribe(sink: sink))
        return sink.asDisposable
    }
}

/// Passes each element through a run's stages in a loop, in two slots of stack memory that the
/// stages take turns reading and writing.
final class StatelessRunSink<Input, Output>: StatelessSink<Input, Output>, @unchecked Sendable {
    private let stages: ContiguousArray<RunStage>
    private let slotStride: Int
    private let slotAlignment: Int

    init(stages: ContiguousArray<RunStage>, downstream: Sink<Output>) {
        self.stages = stages
        var stride = Swift.max(MemoryLayout<Input>.stride, 1)
        var alignment = MemoryLayout<Input>.alignment
        for stage in stages {
            stride = Swift.max(stride, stage.outputStride)
            alignment = Swift.max(alignment, stage.outputAlignment)
        }
        // Rounded up so that the second slot is aligned as well.
        slotStride = (stride + alignment - 1) / alignment * alignment
        slotAlignment = alignment
        super.init(downstream: downstream)
    }

    override func next(_ element: Input) {
        guard isForwarding else { return }
        withUnsafeTemporaryAllocation(byteCount: 2 * slotStride, alignment: slotAlignment) { buffer in
            var input = buffer.baseAddress.unsafelyUnwrapped
            var output = input + slotStride
            input.initializeMemory(as: Input.self, to: element)
            for index in stages.indices {
                let outcome: RunStageOutcome
                do {
                    outcome = try stages[index].apply(input, output)
                } catch {
                    forwardTermination(.error(error))
                    return
                }
                switch outcome {
                case .moved: swap(&input, &output)
                case .kept: break
                case .dropped: return
                }
                // Checked after every stage, as each operator's own sink did: a closure may have
                // ended or disposed the subscription.
                if !isForwarding {
                    stages[index].destroyOutput(input)
                    return
                }
            }
            downstream.next(input.assumingMemoryBound(to: Output.self).move())
        }
    }
}
