extension ObservableType {
    /// Combines the elements of the sequences of `collection` pairwise: the first of each, then the
    /// second of each, …
    ///
    /// Same rules as the arity forms (`zip(_:_:resultSelector:)`), with one more, as in RxSwift: the
    /// result also completes when an element arrives that can never be paired because every other
    /// source has completed. An empty `collection` completes at once, as in RxSwift.
    ///
    /// - Parameters:
    ///   - collection: The sources.
    ///   - resultSelector: Builds a result from one element of each source, in order.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The results of `resultSelector`.
    ///
    /// RxJS: `zip(array)`; Combine: `zip` chains.
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> where Collection.Element: ObservableType {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "zip(resultSelector:)", callerFileID, callerLine)
        return CollectionCombiningObservable(
            sources: collection.map { $0.asObservable() }, selector: resultSelector, run: ZipCollectionSink.run)
    }

    /// Combines the elements of the sequences of `collection` pairwise into arrays. See
    /// ``zip(_:resultSelector:isolation:callerFileID:callerLine:)``.
    ///
    /// - Parameter collection: The sources.
    /// - Returns: Arrays of one element of each source, in order.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
    where Collection.Element: ObservableType, Collection.Element.Element == Element {
        CollectionCombiningObservable(
            sources: collection.map { $0.asObservable() }, selector: { $0 }, run: ZipCollectionSink.run)
    }
}

/// Thread-safety: once the first source is attached, `sources` is the claim's holder's (`CombiningSink`).
final class ZipCollectionSink<Element, Result>: ZipSink<Result>, @unchecked Sendable {
    private let selector: ([Element]) throws -> Result
    @exclusivity(unchecked) fileprivate var sources: [ZipSource<Element, Result>] = []

    init(count: Int, selector: @escaping ([Element]) throws -> Result, downstream: Sink<Result>) {
        self.selector = selector
        super.init(arity: count, completesEarly: true, downstream: downstream)
        sources = (0..<count).map { ZipSource(parent: self, index: $0) }
    }

    /// Makes the sink for `observables` and subscribes them in order (``CollectionCombiningObservable``'s
    /// `run`); an empty collection completes at once.
    static func run(
        _ observables: [Observable<Element>], _ selector: @escaping ([Element]) throws -> Result,
        _ downstream: Sink<Result>
    ) -> Disposable {
        let sink = ZipCollectionSink(count: observables.count, selector: selector, downstream: downstream)
        if observables.isEmpty {
            sink.forwardTermination(.completed)
            return sink.asDisposable
        }
        // Local references: the sink may tear its sources down (on another thread) once one is attached.
        let sinks = sink.sources
        for (source, sourceSink) in Swift.zip(observables, sinks) {
            sourceSink.attach(to: source)
        }
        return sink.asDisposable
    }

    override func combineNext() throws -> Result {
        try selector(sources.map { $0.dequeue() })
    }

    override func tearDownSources() {
        for source in sources { source.dispose() }
        sources = []
    }
}
