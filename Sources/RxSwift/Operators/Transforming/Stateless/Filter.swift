extension ObservableType {
    /// Passes on only the elements for which `predicate` returns `true`.
    ///
    /// Completes and errors when the source does; a throwing `predicate` ends the sequence with its
    /// error and disposes the source. No scheduler; no lock or allocation per element.
    /// RxJS: `filter`; Combine: `filter` / `tryFilter`.
    @inlinable
    public func filter(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "filter", callerFileID, callerLine)
        return FilterObservable(source: asObservable(), predicate: predicate)
    }
}

/// Made by inlinable code (DESIGN.md, "The hot path").
@usableFromInline
final class FilterObservable<Element>: Observable<Element>, @unchecked Sendable {
    /// The source, retained by hand so that releasing a long chain can hand it over
    /// (``releaseStatelessSource(_:depth:)``).
    private let sourceReference: Unmanaged<Observable<Element>>

    /// The source, borrowed (the operator holds it).
    @inline(__always)
    private func withSource<R>(_ body: (Observable<Element>) -> R) -> R {
        sourceReference._withUnsafeGuaranteedRef(body)
    }
    let predicate: (Element) throws -> Bool

    /// Makes, in the caller's module, this `filter`'s sink and the sink of two `filter`s in a row
    /// (`StatelessChains.swift`).
    private let makeStage: MakeFilterStage<Element>

    @usableFromInline
    init(
        source: Observable<Element>, predicate: @escaping (Element) throws -> Bool,
        makeStage: @escaping MakeFilterStage<Element> = { predicate, then, downstream in
            guard let downstream else { return RunStageNode(stage: .filter(predicate)) }
            if let then { return FilterFilterSink(first: predicate, second: then, downstream: downstream) }
            return FilterSink(predicate: predicate, downstream: downstream)
        }
    ) {
        let below = source.runDepth
        sourceReference = Unmanaged.passRetained(source)
        self.predicate = predicate
        self.makeStage = makeStage
        super.init()
        runDepth = below &+ 1
    }

    deinit {
        releaseStatelessSource(Unmanaged.fromOpaque(sourceReference.toOpaque()), depth: runDepth)
    }

    private func sink(_ then: ((Element) throws -> Bool)?, _ downstream: Sink<Element>) -> OperatorSink<
        Element, Element
    > {
        unsafeDowncast(makeStage(predicate, then, downstream), to: OperatorSink<Element, Element>.self)
    }

    override func runStage() -> (stage: RunStage, below: any RunLink)? {
        (
            unsafeDowncast(makeStage(predicate, nil, nil), to: RunStageNode.self).stage,
            sourceReference.takeUnretainedValue()
        )
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        if isOverRun { return withSource { sink(nil, downstream).subscribed(to: $0, asRun: true) } }
        return withSource { $0.subscribe(filterAbove: self, downstream: downstream) }
    }

    func subscribeOwnSink(_ downstream: Sink<Element>) -> Disposable {
        return withSource { sink(nil, downstream).subscribed(to: $0) }
    }

    /// A `filter` of this `filter`: one sink tests both predicates.
    override func subscribe(filterAbove filter: FilterObservable<Element>, downstream: Sink<Element>) -> Disposable {
        withSource { sink(filter.predicate, downstream).subscribed(to: $0, asRun: isOverRun) }
    }

    /// A `map` of this `filter`: one sink filters and maps.
    override func subscribe<Result>(mapAbove map: MapObservable<Element, Result>, downstream: Sink<Result>)
        -> Disposable
    {
        withSource { map.subscribePair(filteringFirst: predicate, to: $0, asRun: isOverRun, downstream: downstream) }
    }
}

@usableFromInline
final class FilterSink<Element>: StatelessSink<Element, Element>, @unchecked Sendable {
    private let predicate: (Element) throws -> Bool

    @usableFromInline
    init(predicate: @escaping (Element) throws -> Bool, downstream: Sink<Element>) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        do {
            if try predicate(element) { downstream.next(element) }
        } catch {
            forwardTermination(.error(error))
        }
    }
}
