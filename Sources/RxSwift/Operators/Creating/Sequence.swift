extension ObservableType {
    /// A sequence of the given elements, then completed, delivered on `scheduler` (the current-thread
    /// trampoline by default, as in RxSwift). RxJS: `of`; Combine: `Publishers.Sequence`.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance)
        -> Observable<Element>
    {
        SequenceObservable(elements: elements, scheduler: scheduler)
    }

    /// A sequence of the array's elements, then completed, delivered on `scheduler`.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance)
        -> Observable<Element>
    {
        SequenceObservable(elements: array, scheduler: scheduler)
    }

    /// A sequence of the elements of `sequence`, then completed, delivered on `scheduler`.
    public static func from<Source: Sequence>(
        _ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> where Source.Element == Element {
        SequenceObservable(elements: sequence, scheduler: scheduler)
    }

    /// One element if `optional` holds one, then completed; on the subscribing thread.
    public static func from(optional: Element?) -> Observable<Element> {
        if let optional { return just(optional) }
        return empty()
    }

    /// One element if `optional` holds one, then completed; delivered on `scheduler`.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SequenceObservable(elements: optional.map { [$0] } ?? [], scheduler: scheduler)
    }
}

/// Emits a sequence's elements one scheduled step at a time (so a trampoline interleaves it fairly
/// with other sources, as in RxSwift).
final class SequenceObservable<Source: Sequence>: RecursiveSource<Source.Element>, @unchecked Sendable {
    private let elements: Source

    init(elements: Source, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        super.init(scheduler: scheduler)
    }

    override func run(_ downstream: Sink<Source.Element>) -> Disposable {
        let sink = SourceSink(downstream: downstream)
        sink.setUpstream(
            scheduler.scheduleRecursive(elements.makeIterator()) { iterator, recurse in
                var iterator = iterator
                if let element = iterator.next() {
                    sink.forward(element)
                    recurse(iterator)
                } else {
                    sink.forwardTermination(.completed)
                }
            })
        return sink.asDisposable
    }
}
