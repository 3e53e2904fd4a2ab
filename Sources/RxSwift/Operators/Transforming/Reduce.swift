extension ObservableType {
    /// Folds every element into an accumulator that starts as `seed` and, when the source completes,
    /// emits `mapResult` of the final accumulator, then completes.
    ///
    /// Nothing is emitted before the source completes; an empty source gives `mapResult(seed)`. Errors
    /// when the source does (without emitting); a throwing `accumulator` or `mapResult` ends the
    /// sequence with its error and disposes the source. Every subscription starts again from `seed`.
    /// No scheduler; no lock per element. RxJS: `reduce` + `map`; Combine: `reduce` + `map`.
    ///
    /// - Parameters:
    ///   - seed: The initial accumulator value.
    ///   - accumulator: Returns the next accumulator value from the previous one and an element.
    ///   - mapResult: Turns the final accumulator into the emitted result.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: A sequence of one element, the mapped result, or an error.
    public func reduce<A, Result>(
        _ seed: A, accumulator: @escaping (A, Element) throws -> A, mapResult: @escaping (A) throws -> Result,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Result> {
        let accumulator =
            isolation == nil
            ? accumulator
            : rxIsolationChecked(accumulator, isolation, "reduce(accumulator:)", callerFileID, callerLine)
        let mapResult =
            isolation == nil
            ? mapResult
            : rxIsolationChecked(mapResult, isolation, "reduce(mapResult:)", callerFileID, callerLine)
        return ReduceObservable(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: mapResult)
    }

    /// Folds every element into an accumulator that starts as `seed` and, when the source completes,
    /// emits the final accumulator, then completes.
    ///
    /// Nothing is emitted before the source completes; an empty source gives `seed`. Errors when the
    /// source does (without emitting); a throwing `accumulator` ends the sequence with its error and
    /// disposes the source. Every subscription starts again from `seed`. No scheduler; no lock per
    /// element. RxJS: `reduce`; Combine: `reduce` / `tryReduce`.
    ///
    /// - Parameters:
    ///   - seed: The initial accumulator value.
    ///   - accumulator: Returns the next accumulator value from the previous one and an element.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: A sequence of one element, the final accumulator, or an error.
    public func reduce<A>(
        _ seed: A, accumulator: @escaping (A, Element) throws -> A, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<A> {
        let accumulator =
            isolation == nil
            ? accumulator
            : rxIsolationChecked(accumulator, isolation, "reduce(accumulator:)", callerFileID, callerLine)
        return ReduceObservable(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: { $0 })
    }
}

final class ReduceObservable<Source, Accumulate, Result>: Observable<Result>, @unchecked Sendable {
    private let source: Observable<Source>
    private let seed: Accumulate
    private let accumulator: (Accumulate, Source) throws -> Accumulate
    private let mapResult: (Accumulate) throws -> Result

    init(
        source: Observable<Source>, seed: Accumulate, accumulator: @escaping (Accumulate, Source) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Result
    ) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init()
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        return ReduceSink(seed: seed, accumulator: accumulator, mapResult: mapResult, downstream: downstream)
            .subscribed(to: source)
    }
}

/// Thread-safety: `accumulated` is touched only by `next` and `terminate`, which upstream serializes.
final class ReduceSink<Source, Accumulate, Result>: OneSourceSink<Source, Result>, @unchecked Sendable {
    @exclusivity(unchecked) private var accumulated: Accumulate
    private let accumulator: (Accumulate, Source) throws -> Accumulate
    private let mapResult: (Accumulate) throws -> Result

    init(
        seed: Accumulate, accumulator: @escaping (Accumulate, Source) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Result, downstream: Sink<Result>
    ) {
        self.accumulated = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        do {
            accumulated = try accumulator(accumulated, element)
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func terminate(_ termination: Termination) {
        guard case .completed = termination, isForwarding else {
            forwardTermination(termination)
            return
        }
        emitResult()
    }

    @inline(never)
    private func emitResult() {
        let result: Result
        do {
            result = try mapResult(accumulated)
        } catch {
            forwardTermination(.error(error))
            return
        }
        downstream.next(result)
        forwardTermination(.completed)
    }
}
