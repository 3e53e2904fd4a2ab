extension ObservableType {
    /// Combines the latest elements of the sequences of `collection` whenever any of them delivers one.
    ///
    /// Same rules as the arity forms (`combineLatest(_:_:resultSelector:)`): subscribed in order; a
    /// result per element once every source has delivered; completes when all have completed, or when
    /// an element arrives while all the sources that never delivered have completed. An empty
    /// `collection` delivers `resultSelector([])` and completes at once, as in RxSwift.
    ///
    /// - Parameters:
    ///   - collection: The sources.
    ///   - resultSelector: Builds a result from the latest element of each source, in order.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The results of `resultSelector`.
    ///
    /// RxJS: `combineLatest(array)`; Combine: `combineLatest` chains.
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> where Collection.Element: ObservableType {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "combineLatest(resultSelector:)", callerFileID, callerLine)
        return CollectionCombiningObservable(
            sources: collection.map { $0.asObservable() }, selector: resultSelector,
            run: CombineLatestCollectionSink.run)
    }

    /// Combines the latest elements of the sequences of `collection` into arrays whenever any of them
    /// delivers one. See ``combineLatest(_:resultSelector:isolation:callerFileID:callerLine:)``.
    ///
    /// - Parameter collection: The sources.
    /// - Returns: Arrays of the latest element of each source, in order.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
    where Collection.Element: ObservableType, Collection.Element.Element == Element {
        CollectionCombiningObservable(
            sources: collection.map { $0.asObservable() }, selector: { $0 }, run: CombineLatestCollectionSink.run)
    }
}

/// Thread-safety: once the first source is attached, `sources` and the value slots are the claim's
/// holder's (`CombiningSink`).
final class CombineLatestCollectionSink<Element, Result>: CombineLatestSink<Result>, @unchecked Sendable {
    private let selector: ([Element]) throws -> Result
    private let slots: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private var sources: [CombineLatestSource<Element, Result>?] = []

    init(count: Int, selector: @escaping ([Element]) throws -> Result, downstream: Sink<Result>) {
        self.selector = selector
        slots = UnsafeMutablePointer.allocate(capacity: Swift.max(count, 1))
        super.init(arity: count, valuesAreTrivial: _isPOD(Element.self), downstream: downstream)
    }

    deinit {
        destroyValues()
        slots.deallocate()
    }

    /// Makes the sink for `observables` and subscribes it (``CollectionCombiningObservable``'s `run`).
    static func run(
        _ observables: [Observable<Element>], _ selector: @escaping ([Element]) throws -> Result,
        _ downstream: Sink<Result>
    ) -> Disposable {
        let sink = CombineLatestCollectionSink(count: observables.count, selector: selector, downstream: downstream)
        if observables.isEmpty {
            sink.combineNothing()
        } else {
            sink.start(observables)
        }
        return sink.asDisposable
    }

    /// Subscribes to `observables`, in order (constant ones are delivered without a subscription).
    func start(_ observables: [Observable<Element>]) {
        // Every sink is made before the first is attached: from then on, `sources` belongs to the claim's
        // holder, which may be another thread.
        let sinks = observables.indices.map { index -> CombineLatestSource<Element, Result>? in
            observables[index].isConstantSource
                ? nil : CombineLatestSource(parent: self, index: index, slot: slots + index)
        }
        sources = sinks
        var holding = false
        for index in observables.indices {
            holding = attach(observables[index], sinks[index], slot: slots + index, index: index, holding: holding)
        }
        if holding { leave() }
    }

    override func combine() throws -> Result {
        // One bulk copy of the slots (a `memcpy` for trivial elements; DESIGN.md, "The hot path").
        let count = hasValue.arity
        let values = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { buffer.baseAddress.unsafelyUnwrapped.initialize(from: slots, count: count) }
            initialized = count
        }
        return try selector(values)
    }

    override func destroyValue(at index: Int) {
        (slots + index).deinitialize(count: 1)
    }

    /// An empty collection: one result for no elements, then completion.
    func combineNothing() {
        do {
            forward(try selector([]))
            forwardTermination(.completed)
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func tearDownSources() {
        for source in sources { source?.dispose() }
        sources = []
        destroyValues()
    }
}
