// `andThen`: a Completable followed by another sequence, which is subscribed when the Completable
// completes (an error ends everything). Each form keeps the trait of what follows.

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// This Completable, then `second`'s element.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        PrimitiveSequence(raw: followed(by: second.asObservable()))
    }

    /// This Completable, then `second`'s element or completion.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        PrimitiveSequence(raw: followed(by: second.asObservable()))
    }

    /// This Completable, then `second`.
    public func andThen(_ second: Completable) -> Completable {
        PrimitiveSequence(raw: followed(by: second.asObservable()))
    }

    /// This Completable, then `second`'s elements.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        followed(by: second)
    }

    /// The Completable's events with its element type changed (it has none), followed by `second`.
    private func followed<Element>(by second: Observable<Element>) -> Observable<Element> {
        primitiveSequence.source.map { never -> Element in }.concat(second)
    }
}
