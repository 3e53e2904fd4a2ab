#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

// Long runs of `map` and `filter`: one sink, a loop (see `StatelessChains.swift`, which says when a
// chain is subscribed as a run and why).
//
// A run's sink holds the stages' closures, made for its subscription, and is subscribed to the root
// (the first source that is not a `map` or `filter`); the operators stay as they were built.

/// How many `map`/`filter` operators in a row are subscribed as themselves (in pairs); a longer chain
/// is subscribed as a run and released in a loop (`StatelessChains.swift`). A computed constant, not a
/// stored global, which every operator would read through a once-check.
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
/// into the second; on a throw the input slot has been consumed. Made by the operators' factories in
/// the caller's module (DESIGN.md, "The hot path").
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

/// One stage of a run as the sink factories return it; ``subscribeAsRun(_:_:)`` takes the stage out.
@usableFromInline
final class RunStageNode: @unchecked Sendable {
    let stage: RunStage

    @usableFromInline
    init(stage: RunStage) {
        self.stage = stage
    }
}

/// An observable as a link of a chain of `map`s and `filter`s: reaches the stage and source of a `map`
/// or `filter` without its element type, and makes a run's sink at the root.
protocol RunLink: AnyObject {
    func runStage() -> (stage: RunStage, below: any RunLink)?
    func subscribeRun<Output>(stages: ContiguousArray<RunStage>, downstream: Sink<Output>) -> Disposable
}

extension Observable: RunLink {
    /// Subscribes the run of `stages` (in the order they run) to this observable, its root.
    func subscribeRun<Output>(stages: ContiguousArray<RunStage>, downstream: Sink<Output>) -> Disposable {
        let sink = StatelessRunSink<Element, Output>(stages: stages, downstream: downstream)
        sink.setUpstream(subscribe(sink: sink))
        return sink.asDisposable
    }
}

extension Observable {
    /// Whether this `map` or `filter` is the first above a run (the chain below it is a multiple of
    /// `runThreshold` long), so a chain is at most `runThreshold` nested sinks over one run.
    @inline(__always)
    final var isOverRun: Bool { runDepth > runThreshold && (runDepth &- 1) % runThreshold == 0 }
}

extension OperatorSink {
    /// Subscribes this sink to `source`, as one run of the chain `source` ends if `asRun`.
    @inline(__always)
    final func subscribed(to source: Observable<Input>, asRun: Bool) -> Disposable {
        setUpstream(asRun ? subscribeAsRun(source, self) : source.subscribe(sink: self))
        return asDisposable
    }
}

/// Subscribes the chain ending with `top` as one run, making its stages in a loop down to the root.
@inline(never)
func subscribeAsRun<Output>(_ top: Observable<Output>, _ downstream: Sink<Output>) -> Disposable {
    var below: any RunLink = top
    var stages = ContiguousArray<RunStage>()
    // The chain's depth is the number of its `map`s and `filter`s.
    stages.reserveCapacity(top.runDepth)
    while let (stage, next) = below.runStage() {
        stages.append(stage)
        below = next
    }
    // Met last-first.
    stages.reverse()
    return below.subscribeRun(stages: stages, downstream: downstream)
}

/// Releases the source of a `map` or `filter` of `depth`. Past the threshold, on a thread already
/// releasing such a chain, the source goes to that release's loop (its list on the stack, found
/// through a pthread key) instead of nesting a deinitializer per operator.
@inline(__always)
func releaseStatelessSource(_ source: Unmanaged<AnyObject>, depth: Int) {
    if depth <= runThreshold {
        source.release()
    } else {
        releaseInTurn(source)
    }
}

@inline(never)
private func releaseInTurn(_ source: Unmanaged<AnyObject>) {
    if let running = pthread_getspecific(releaseLoopKey) {
        running.assumingMemoryBound(to: ContiguousArray<Unmanaged<AnyObject>>.self).pointee.append(source)
        return
    }
    var pending = ContiguousArray<Unmanaged<AnyObject>>()
    withUnsafeMutablePointer(to: &pending) { list in
        pthread_setspecific(releaseLoopKey, list)
        var next: Unmanaged<AnyObject>? = source
        while let current = next {
            // Its deinitializer, if this was the last reference, appends its own source to the list.
            current.release()
            next = list.pointee.popLast()
        }
        pthread_setspecific(releaseLoopKey, nil)
    }
}

private let releaseLoopKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "releasing a long chain: pthread_key_create failed (\(status))")
    return key
}()

/// Passes each element through a run's stages in a loop, in two stack slots the stages take turns
/// reading and writing.
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
                // Checked after every stage: a closure may have ended or disposed the subscription.
                if !isForwarding {
                    stages[index].destroyOutput(input)
                    return
                }
            }
            downstream.next(input.assumingMemoryBound(to: Output.self).move())
        }
    }
}
