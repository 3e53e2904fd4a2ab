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
    /// - Parameter sequence: The sequences to concatenate.
    /// - Returns: The elements of every sequence, in order.
    ///
    /// RxJS: `concat(...)`; Combine: `append` chains.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        SequentialSourcesObservable(sources: sequence, movesOn: .afterCompletion)
    }

    /// Delivers the elements of the sequences of `collection`, one sequence after another. See
    /// ``concat(_:)-(Sequence)``.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element>
    where Collection.Element == Observable<Element> {
        SequentialSourcesObservable(sources: collection, movesOn: .afterCompletion)
    }

    /// Delivers the elements of `sources`, one sequence after another. See ``concat(_:)-(Sequence)``.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        SequentialSourcesObservable(sources: sources, movesOn: .afterCompletion)
    }
}
