// `andThen`: a Completable followed by another sequence, which is subscribed when the Completable
// completes (an error ends everything). Each form keeps the trait of what follows. When the
// Completable completes, its subscription is disposed and the Completable itself (with what its
// closures hold) is released while the second runs, as RxSwift's dedicated sink does: a `concat` of a
// two-element collection drops its iterator when it takes the last element.

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// This Completable, then `second`'s element.
    ///
    /// `second` is subscribed when this Completable completes, on the thread of that completion; this
    /// Completable's subscription is then disposed and the Completable released (unless something
    /// else holds it). An error of either is delivered at once. RxSwift: the same.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        PrimitiveSequence(raw: followed(by: second.asObservable()))
    }

    /// This Completable, then `second`'s element or completion. See the `Single` form of `andThen`
    /// for when `second` is subscribed and this Completable released.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        PrimitiveSequence(raw: followed(by: second.asObservable()))
    }

    /// This Completable, then `second`. See the `Single` form of `andThen` for when `second` is
    /// subscribed and this Completable released.
    public func andThen(_ second: Completable) -> Completable {
        PrimitiveSequence(raw: followed(by: second.asObservable()))
    }

    /// This Completable, then `second`'s elements. See the `Single` form of `andThen` for when
    /// `second` is subscribed and this Completable released.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        followed(by: second)
    }

    /// The Completable's events with its element type changed (it has none), followed by `second`:
    /// a `concat` of two, whose known count releases the first when the second starts.
    private func followed<Element>(by second: Observable<Element>) -> Observable<Element> {
        primitiveSequence.source.map { never -> Element in }.concat(second)
    }
}
