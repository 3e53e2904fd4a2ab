extension ObservableType {
    /// Transforms each element with `transform` and passes on only the results that are not `nil`.
    ///
    /// Completes and errors when the source does; a throwing `transform` ends the sequence with its
    /// error and disposes the source. No scheduler; no lock or allocation per element.
    /// RxJS: `map` + `filter`; Combine: `compactMap` / `tryCompactMap`.
    ///
    /// - Parameters:
    ///   - transform: Maps an element to a result, or to `nil` to drop it.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The non-`nil` results, in order.
    @inlinable
    public func compactMap<Result>(
        _ transform: @escaping (Element) throws -> Result?, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Result> {
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "compactMap", callerFileID, callerLine)
        // The `nil` test runs in this closure, made where `Result` is concrete: in the library's
        // unspecialized sink, every `Result?` would cost a run-time metadata lookup per element.
        return CompactMapObservable(source: asObservable()) { element, downstream in
            if let result = try transform(element) { downstream.next(result) }
        }
    }
}

/// Applies the transform and forwards a non-`nil` result to the sink it is given.
@usableFromInline
typealias CompactMapStep<Source, Result> = (Source, Sink<Result>) throws -> Void

@usableFromInline
final class CompactMapObservable<Source, Result>: Observable<Result>, @unchecked Sendable {
    private let source: Observable<Source>
    private let transform: CompactMapStep<Source, Result>

    @usableFromInline
    init(source: Observable<Source>, transform: @escaping CompactMapStep<Source, Result>) {
        self.source = source
        self.transform = transform
        super.init()
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        return CompactMapSink(transform: transform, downstream: downstream).subscribed(to: source)
    }
}

final class CompactMapSink<Source, Result>: OneSourceSink<Source, Result>, @unchecked Sendable {
    private let transform: CompactMapStep<Source, Result>

    init(transform: @escaping CompactMapStep<Source, Result>, downstream: Sink<Result>) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        do {
            try transform(element, downstream)
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
