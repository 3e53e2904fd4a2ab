extension ObservableType {
    /// Emits each intermediate result of folding the elements into an accumulator that starts as
    /// `seed`; `accumulator` mutates the accumulator in place (no copy per element for values such as
    /// arrays).
    ///
    /// Every subscription starts again from `seed`. Completes and errors when the source does; a
    /// throwing `accumulator` ends the sequence with its error and disposes the source. No scheduler;
    /// no lock per element. RxJS: `scan`; Combine: `scan` / `tryScan`.
    ///
    /// - Parameters:
    ///   - seed: The initial accumulator value.
    ///   - accumulator: Folds one element into the accumulator.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The accumulator after each element.
    public func scan<A>(
        into seed: A, accumulator: @escaping (inout A, Element) throws -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<A> {
        let accumulator =
            isolation == nil
            ? accumulator
            : rxIsolationChecked(accumulator, isolation, "scan(accumulator:)", callerFileID, callerLine)
        return ScanObservable(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Emits each intermediate result of folding the elements, starting from `seed`:
    /// `accumulator(previous, element)` gives the next accumulator value, which is also emitted.
    ///
    /// Every subscription starts again from `seed`. Completes and errors when the source does; a
    /// throwing `accumulator` ends the sequence with its error and disposes the source. No scheduler;
    /// no lock per element. RxJS: `scan`; Combine: `scan` / `tryScan`.
    ///
    /// - Parameters:
    ///   - seed: The initial accumulator value.
    ///   - accumulator: Returns the next accumulator value from the previous one and an element.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The accumulator after each element.
    public func scan<A>(
        _ seed: A, accumulator: @escaping (A, Element) throws -> A, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<A> {
        let accumulator =
            isolation == nil
            ? accumulator
            : rxIsolationChecked(accumulator, isolation, "scan(accumulator:)", callerFileID, callerLine)
        return ScanObservable(source: asObservable(), seed: seed) { accumulated, element in
            accumulated = try accumulator(accumulated, element)
        }
    }
}

final class ScanObservable<Source, Accumulate>: Observable<Accumulate>, @unchecked Sendable {
    private let source: Observable<Source>
    private let seed: Accumulate
    private let accumulator: (inout Accumulate, Source) throws -> Void

    init(source: Observable<Source>, seed: Accumulate, accumulator: @escaping (inout Accumulate, Source) throws -> Void)
    {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        super.init()
    }

    override func subscribe(sink downstream: Sink<Accumulate>) -> Disposable {
        return ScanSink(seed: seed, accumulator: accumulator, downstream: downstream).subscribed(to: source)
    }
}

/// Thread-safety: `accumulated` is touched only by `next`, which upstream serializes.
final class ScanSink<Source, Accumulate>: OneSourceSink<Source, Accumulate>, @unchecked Sendable {
    @exclusivity(unchecked) private var accumulated: Accumulate
    private let accumulator: (inout Accumulate, Source) throws -> Void

    init(
        seed: Accumulate, accumulator: @escaping (inout Accumulate, Source) throws -> Void,
        downstream: Sink<Accumulate>
    ) {
        self.accumulated = seed
        self.accumulator = accumulator
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        do {
            try accumulator(&accumulated, element)
            downstream.next(accumulated)
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
