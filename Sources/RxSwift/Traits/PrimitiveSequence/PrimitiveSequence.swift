/// An observable sequence with a restricted grammar, named by its `Trait`: ``Single`` (one element or
/// an error), ``Maybe`` (one element, completion without an element, or an error) and
/// ``Completable`` (completion or an error, no element).
///
/// A value type wrapping an ``Observable``; its operators return the same trait where the result keeps
/// the grammar, and ``asObservable()`` gives the underlying sequence. As in RxSwift, a sequence made
/// with `create` is trusted to keep its trait's grammar; ``ObservableType/asSingle()`` and friends
/// check it.
///
/// Thread-safety: an immutable struct around an `Observable`, which is itself safe to share.
public struct PrimitiveSequence<Trait, Element>: @unchecked Sendable {
    @usableFromInline
    let source: Observable<Element>

    /// Wraps `raw`, which must keep the trait's grammar.
    @inlinable
    init(raw: Observable<Element>) {
        source = raw
    }
}

/// A type that is, or can be turned into, a ``PrimitiveSequence``: the operators of the traits are
/// defined on it, as in RxSwift.
public protocol PrimitiveSequenceType {
    /// The trait: ``SingleTrait``, ``MaybeTrait`` or ``CompletableTrait``.
    associatedtype Trait
    /// The element type.
    associatedtype Element

    /// The sequence as a ``PrimitiveSequence``.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// `self`.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> {
        self
    }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The underlying observable sequence.
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension PrimitiveSequence {
    /// The collection `zip` of Singles and Maybes (one body for both traits' overloads): forwards to
    /// `Observable.zip` over the collection.
    ///
    /// An empty collection delivers `resultSelector([])` on each subscription (a throwing selector
    /// fails it), as RxSwift's `Single.zip` does: `Observable.zip` of no sources completes without an
    /// element, which a Single must not do.
    static func zipped<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result
    ) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, Result>(raw: Observable.deferred { .just(try resultSelector([])) })
        }
        return PrimitiveSequence<Trait, Result>(
            raw: Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }
}
