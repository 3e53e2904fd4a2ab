import RxSwift

/// How a sequence observed by ``BlockingObservable/materialize()`` ended, with the elements it
/// delivered before.
@frozen public enum MaterializedSequenceResult<T> {
    /// The sequence completed after delivering `elements`.
    case completed(elements: [T])
    /// The sequence failed with `error` (or timed out, with `RxError.timeout`) after delivering
    /// `elements`.
    case failed(elements: [T], error: any Error)
}

extension BlockingObservable {
    /// Blocks until the sequence terminates and returns every element.
    ///
    /// - Throws: The sequence's error, or `RxError.timeout`.
    /// - Returns: The elements in the order they arrived.
    public func toArray() throws -> [Element] {
        try collect().elementsOrThrow()
    }

    /// Blocks until the sequence delivers its first element or terminates.
    ///
    /// The subscription is disposed as soon as the first element arrives, so an endless sequence is
    /// fine.
    ///
    /// - Throws: The sequence's error if it fails before its first element, or `RxError.timeout`.
    /// - Returns: The first element, or `nil` if the sequence completes empty.
    public func first() throws -> Element? {
        try collect(max: 1).elementsOrThrow().first
    }

    /// Blocks until the sequence terminates and returns its last element.
    ///
    /// - Throws: The sequence's error, or `RxError.timeout`.
    /// - Returns: The last element, or `nil` if the sequence completes empty.
    public func last() throws -> Element? {
        try collect().elementsOrThrow().last
    }

    /// Blocks until the sequence terminates and returns its only element.
    ///
    /// Stops waiting, and disposes the subscription, as soon as a second element arrives.
    ///
    /// - Throws: `RxError.noElements` if the sequence completes empty, `RxError.moreThanOneElement` if
    ///   it delivers a second element, the sequence's error, or `RxError.timeout`.
    /// - Returns: The only element.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// Blocks until the sequence terminates and returns the only element that satisfies `predicate`.
    ///
    /// Stops waiting, and disposes the subscription, as soon as a second element satisfies it.
    ///
    /// - Parameter predicate: Decides which elements count; an error it throws is thrown by `single`.
    /// - Throws: `RxError.noElements` if no element satisfies `predicate`,
    ///   `RxError.moreThanOneElement` if two do, the sequence's or the predicate's error, or
    ///   `RxError.timeout`.
    /// - Returns: The only element that satisfies `predicate`.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let elements = try collect(max: 2, predicate: predicate).elementsOrThrow()
        guard let element = elements.first else { throw RxError.noElements }
        guard elements.count == 1 else { throw RxError.moreThanOneElement }
        return element
    }

    /// Blocks until the sequence terminates and returns how it ended, never throwing.
    ///
    /// - Returns: `.completed` with every element, or `.failed` with the elements delivered before
    ///   the error (`RxError.timeout` when the timeout passed first).
    public func materialize() -> MaterializedSequenceResult<Element> {
        collect()
    }

    private func collect(
        max: Int? = nil, predicate: @escaping (Element) throws -> Bool = { _ in true }
    ) -> MaterializedSequenceResult<Element> {
        BlockingCollector(source: source, max: max, predicate: predicate).run(timeout: timeout)
    }
}

extension MaterializedSequenceResult {
    fileprivate func elementsOrThrow() throws -> [T] {
        switch self {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }
}
