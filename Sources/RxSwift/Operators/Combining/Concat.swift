extension ObservableType {
    /// Delivers the source's elements, then, once it completes, `second`'s.
    ///
    /// `second` is subscribed when the source completes, on the thread of that completion. Completes
    /// when `second` completes; an error from either is delivered at once. No scheduler is used.
    ///
    /// - Parameter second: The sequence that follows.
    /// - Returns: The source's elements followed by `second`'s.
    ///
    /// RxJS: `concatWith`; Combine: `append(_:)`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
    where Source.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }

    /// Delivers the elements of the sequences of `sequence`, one sequence after another.
    ///
    /// Each sequence is subscribed when the previous one completes, on the thread of that completion,
    /// after the previous subscription was disposed. `sequence` is iterated lazily, one sequence per
    /// completion, so it may be infinite — but an infinite run of sequences that complete during
    /// their own subscription (`just`, `empty`, a synchronous `create`) never returns from
    /// `subscribe`, so an operator downstream such as `take(5)` cannot stop it (RxSwift loops the
    /// same way); sequences that deliver through the current-thread trampoline (`of`, `from`) or
    /// asynchronously can be stopped. A sequence that completes synchronously during its
    /// subscription is followed after that subscription returns, so long chains do not grow the
    /// stack. Completes after the last sequence (at once for an empty `sequence`); the first error is
    /// delivered. Disposing disposes the current subscription.
    ///
    /// Tail recursion, as in RxSwift: a sequence of `sequence` that is itself a `concat` over the same
    /// type of sequence (`[a, [b, [c, …].concat()].concat()].concat()`) is flattened into this
    /// subscription instead of being subscribed, so deep nesting grows neither the call stack nor the
    /// chain of observers. Over a sequence (unknown length) the enclosing iterators are kept until
    /// they run out; over a collection an iterator is dropped when its last sequence is taken, which
    /// also releases the earlier sequences (and what their closures hold) while the last one runs.
    ///
    /// - Parameter sequence: The sequences to concatenate.
    /// - Returns: The elements of every sequence, in order.
    ///
    /// RxJS: `concat(...)`; Combine: `append` chains.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        SequentialSourcesObservable(sources: sequence, count: nil, movesOn: .afterCompletion)
    }

    /// Delivers the elements of the sequences of `collection`, one sequence after another. See
    /// ``concat(_:)-(Sequence)``; its count being known, the collection is released as soon as its last
    /// sequence is subscribed, as in RxSwift.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element>
    where Collection.Element == Observable<Element> {
        SequentialSourcesObservable(
            sources: collection, count: collection.count, movesOn: .afterCompletion)
    }

    /// Delivers the elements of `sources`, one sequence after another. See ``concat(_:)-(Sequence)``.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        SequentialSourcesObservable(
            sources: sources, count: sources.count, movesOn: .afterCompletion)
    }
}
