// The pair sinks: a `map` or `filter` subscribed to a `map` or `filter` shares one sink with it (see
// `StatelessChains.swift`, which says how a chain of stateless operators becomes sinks).

/// `map(transform).filter(predicate)` as one sink.
@usableFromInline
final class MapFilterSink<Source, Result>: StatelessSink<Source, Result>, @unchecked Sendable {
    private let transform: (Source) throws -> Result
    private let predicate: (Result) throws -> Bool

    @usableFromInline
    init(
        transform: @escaping (Source) throws -> Result, predicate: @escaping (Result) throws -> Bool,
        downstream: Sink<Result>
    ) {
        self.transform = transform
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        do {
            let result = try transform(element)
            // Checked again, as the filter's own sink did: the transform may have ended or
            // disposed the subscription (re-entrantly, or by disposing it from inside).
            guard isForwarding else { return }
            if try predicate(result) { downstream.next(result) }
        } catch {
            forwardTermination(.error(error))
        }
    }
}

/// `filter(predicate).map(transform)` as one sink.
@usableFromInline
final class FilterMapSink<Source, Result>: StatelessSink<Source, Result>, @unchecked Sendable {
    private let predicate: (Source) throws -> Bool
    private let transform: (Source) throws -> Result

    @usableFromInline
    init(
        predicate: @escaping (Source) throws -> Bool, transform: @escaping (Source) throws -> Result,
        downstream: Sink<Result>
    ) {
        self.predicate = predicate
        self.transform = transform
        super.init(downstream: downstream)
    }

    override func next(_ element: Source) {
        guard isForwarding else { return }
        do {
            guard try predicate(element) else { return }
            // Checked again, as the map's own sink did: the predicate may have ended or disposed
            // the subscription.
            guard isForwarding else { return }
            downstream.next(try transform(element))
        } catch {
            forwardTermination(.error(error))
        }
    }
}

/// `filter(first).filter(second)` as one sink.
@usableFromInline
final class FilterFilterSink<Element>: StatelessSink<Element, Element>, @unchecked Sendable {
    private let first: (Element) throws -> Bool
    private let second: (Element) throws -> Bool

    @usableFromInline
    init(
        first: @escaping (Element) throws -> Bool, second: @escaping (Element) throws -> Bool,
        downstream: Sink<Element>
    ) {
        self.first = first
        self.second = second
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        do {
            guard try first(element) else { return }
            // Checked again, as the second filter's own sink did: the first predicate may have
            // ended or disposed the subscription.
            guard isForwarding else { return }
            if try second(element) { downstream.next(element) }
        } catch {
            forwardTermination(.error(error))
        }
    }
}
