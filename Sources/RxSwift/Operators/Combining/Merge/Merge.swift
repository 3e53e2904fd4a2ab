extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the elements of the inner sequences this sequence emits.
    ///
    /// Behaves as `flatMap { $0 }`: every inner sequence is subscribed when it arrives; completes when
    /// the source and every inner sequence have completed; the first error ends everything.
    ///
    /// - Returns: The elements of every inner sequence, serialized.
    ///
    /// RxJS: `mergeAll`; Combine: `flatMap { $0 }`.
    @inlinable
    public func merge() -> Observable<Element.Element> {
        MergeObservable(source: asObservable(), mode: .all) { $0.asObservable() }
    }

    /// Merges the elements of the inner sequences this sequence emits, with at most `maxConcurrent`
    /// of them subscribed at a time; the others wait, in arrival order, for a slot.
    ///
    /// A waiting sequence is subscribed when an active one completes, on the thread of that
    /// completion. A `maxConcurrent` below 1 is treated as 1 (RxSwift then never subscribes to
    /// anything, which we take for a bug). Otherwise as ``merge()``.
    ///
    /// - Parameter maxConcurrent: The most inner sequences subscribed at once.
    /// - Returns: The elements of the inner sequences, serialized.
    ///
    /// RxJS: `mergeAll(concurrent)`; Combine: `flatMap(maxPublishers: .max(n)) { $0 }`.
    @inlinable
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        MergeObservable(source: asObservable(), mode: .limited(Swift.max(1, maxConcurrent))) { $0.asObservable() }
    }

    /// Delivers the elements of the inner sequences this sequence emits, one sequence after another.
    ///
    /// Behaves as `merge(maxConcurrent: 1)`: an inner sequence is subscribed when the previous one
    /// completes; inner sequences that arrive meanwhile wait.
    ///
    /// - Returns: The elements of the inner sequences, in the order they arrived.
    ///
    /// RxJS: `concatAll`; Combine: `flatMap(maxPublishers: .max(1)) { $0 }`.
    @inlinable
    public func concat() -> Observable<Element.Element> {
        MergeObservable(source: asObservable(), mode: .limited(1)) { $0.asObservable() }
    }
}

extension ObservableType {
    /// Merges the elements of `sources`.
    ///
    /// Every sequence is subscribed, in order, when the result is subscribed. Completes when all have
    /// completed (at once for an empty collection); the first error ends everything. No scheduler is
    /// used; elements are delivered serialized.
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: The elements of every sequence.
    ///
    /// RxJS: `merge(...)`; Combine: `Publishers.MergeMany`.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element>
    where Collection.Element == Observable<Element> {
        MergeSourcesObservable(sources: Array(sources))
    }

    /// Merges the elements of `sources`. See ``merge(_:)-(Collection)``.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeSourcesObservable(sources: sources)
    }

    /// Merges the elements of `sources`. See ``merge(_:)-(Collection)``.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        MergeSourcesObservable(sources: sources)
    }
}

/// `merge` of a fixed list: a ``MergeSink`` fed the list as its source, subscribed synchronously.
final class MergeSourcesObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = MergeSink<Observable<Element>, Element>(mode: .all, selector: { $0 }, downstream: downstream)
        for source in sources {
            sink.next(source)
        }
        sink.terminate(.completed)
        return sink.asDisposable
    }
}
