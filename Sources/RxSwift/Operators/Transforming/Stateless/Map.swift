extension ObservableType {
    /// Transforms each element with `transform`.
    ///
    /// Completes and errors when the source does; a throwing `transform` ends the sequence with its
    /// error and disposes the source. No scheduler; no lock or allocation per element.
    /// RxJS: `map`; Combine: `map` / `tryMap`.
    @_disfavoredOverload
    @inlinable
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Result> {
        checkedMap(
            transform, isolation: isolation, callerFileID: callerFileID, callerLine: callerLine)
    }

    /// The body of both `map`s.
    @inlinable
    func checkedMap<Result>(
        _ transform: @escaping (Element) throws -> Result, isolation: (any Actor)?, callerFileID: StaticString,
        callerLine: UInt
    ) -> Observable<Result> {
        // Only a closure written on an actor passes through the check: in debug builds a generic
        // function in between would cost every closure two reabstraction thunks.
        let transform =
            isolation == nil
            ? transform : rxIsolationChecked(transform, isolation, "map", callerFileID, callerLine)
        return MapObservable(source: asObservable(), transform: transform)
    }
}

extension Observable {
    /// Transforms each element with `transform`: the protocol's `map`, declared on the class too.
    ///
    /// Why twice: a library written for RxSwift may add `map(to value:)` (RxSwiftExt's deprecated
    /// spelling of `mapTo`). Then, inside a generic extension, Swift resolves a trailing-closure
    /// `observable.map { … }` to that method, with the closure as the value, whenever the protocol's
    /// `map` has defaulted parameters after the closure (`isolation:` and the caller's position). A
    /// member of the class itself ranks first, as RxSwift's `map` does. (In an extension of the
    /// protocol itself only the protocol's `map` is there: write the closure in parentheses.)
    @inlinable
    public func map<Result>(
        _ transform: @escaping (Element) throws -> Result, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Result> {
        checkedMap(
            transform, isolation: isolation, callerFileID: callerFileID, callerLine: callerLine)
    }
}

/// Made by inlinable code (DESIGN.md, "The hot path").
@usableFromInline
final class MapObservable<Source, Result>: Observable<Result>, @unchecked Sendable {
    /// The source, retained by hand so that releasing a long chain can hand it over
    /// (``releaseStatelessSource(_:depth:)``).
    private let sourceReference: Unmanaged<Observable<Source>>

    /// The source, borrowed (the operator holds it).
    @inline(__always)
    private func withSource<R>(_ body: (Observable<Source>) -> R) -> R {
        sourceReference._withUnsafeGuaranteedRef(body)
    }
    let transform: (Source) throws -> Result

    /// Makes, in the caller's module, this `map`'s sink, the sink of its pair with a `filter` before or
    /// after it, and its stage of a run (`StatelessChains.swift`); one closure for all four.
    private let makeStage: MakeMapStage<Source, Result>

    @usableFromInline
    init(
        source: Observable<Source>, transform: @escaping (Source) throws -> Result,
        makeStage: @escaping MakeMapStage<Source, Result> = { transform, before, after, downstream in
            guard let downstream else { return RunStageNode(stage: .map(transform)) }
            if let before { return FilterMapSink(predicate: before, transform: transform, downstream: downstream) }
            if let after { return MapFilterSink(transform: transform, predicate: after, downstream: downstream) }
            return MapSink(transform: transform, downstream: downstream)
        }
    ) {
        // Counted here, not in the inlinable `map` (two retains and releases fewer per operator).
        let below = source.runDepth
        sourceReference = Unmanaged.passRetained(source)
        self.transform = transform
        self.makeStage = makeStage
        super.init()
        runDepth = below &+ 1
    }

    deinit {
        releaseStatelessSource(Unmanaged.fromOpaque(sourceReference.toOpaque()), depth: runDepth)
    }

    private func sink(
        _ before: ((Source) throws -> Bool)?, _ after: ((Result) throws -> Bool)?, _ downstream: Sink<Result>
    ) -> OperatorSink<Source, Result> {
        unsafeDowncast(makeStage(transform, before, after, downstream), to: OperatorSink<Source, Result>.self)
    }

    override func runStage() -> (stage: RunStage, below: any RunLink)? {
        (
            unsafeDowncast(makeStage(transform, nil, nil, nil), to: RunStageNode.self).stage,
            sourceReference.takeUnretainedValue()
        )
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        if isOverRun { return withSource { sink(nil, nil, downstream).subscribed(to: $0, asRun: true) } }
        return withSource { $0.subscribe(mapAbove: self, downstream: downstream) }
    }

    func subscribeOwnSink(_ downstream: Sink<Result>) -> Disposable {
        return withSource { sink(nil, nil, downstream).subscribed(to: $0) }
    }

    /// Subscribes one sink that filters with `predicate`, then maps, to the filter's `source`.
    func subscribePair(
        filteringFirst predicate: @escaping (Source) throws -> Bool, to source: Observable<Source>, asRun: Bool,
        downstream: Sink<Result>
    ) -> Disposable {
        sink(predicate, nil, downstream).subscribed(to: source, asRun: asRun)
    }

    /// A `filter` of this `map`: one sink maps and filters.
    override func subscribe(filterAbove filter: FilterObservable<Result>, downstream: Sink<Result>) -> Disposable {
        withSource { sink(nil, filter.predicate, downstream).subscribed(to: $0, asRun: isOverRun) }
    }
}

@usableFromInline
final class MapSink<Source, Result>: StatelessSink<Source, Result>, @unchecked Sendable {
    private let transform: (Source) throws -> Result

    @usableFromInline
    init(transform: @escaping (Source) throws -> Result, downstream: Sink<Result>) {
        self.transform = transform
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        do {
            downstream.next(try transform(element))
        } catch {
            forwardTermination(.error(error))
        }
    }
}
