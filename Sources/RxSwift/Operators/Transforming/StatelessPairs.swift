// Stateless pairs: a `map` or `filter` subscribed to a `map` or `filter` shares one sink with it.
//
// When an operator of the pair is subscribed, it asks its source to subscribe it
// (`subscribe(filter:downstream:)`, `subscribe(map:downstream:)`); a source that is itself a `map` or
// `filter` answers with one sink that does both steps and subscribes that sink to its own source.
// What is delivered, when, and what is disposed are the same as with two sinks; what changes is one
// allocation, one subscription and one virtual call per element fewer per pair.
//
// The pair's sink holds the two closures, never the operators' observables: a subscription keeps
// alive what RxSwift's sinks keep alive, and nothing upstream (a run of operators subscribed as one
// sink that held its stages was measured and rejected for that reason; see Benchmarks/README.md).
// Only pairs, and only those whose element types are all known where the pair's sink is made (in
// the caller's module, through the operators' factories): two `map`s in a row would need a sink
// generic over three types, which no single operator knows, and so a run-time metadata lookup per
// subscription.

/// Makes a `map`'s sink: its own, or with a `filter` before (`before`) or after (`after`) it.
@usableFromInline
typealias MakeMapSink<Source, Result> = (
    _ transform: @escaping (Source) throws -> Result, _ before: ((Source) throws -> Bool)?,
    _ after: ((Result) throws -> Bool)?, _ downstream: Sink<Result>
) -> OperatorSink<Source, Result>

/// Makes a `filter`'s sink: its own, or with a second `filter` after it (`then`).
@usableFromInline
typealias MakeFilterSink<Element> = (
    _ predicate: @escaping (Element) throws -> Bool, _ then: ((Element) throws -> Bool)?, _ downstream: Sink<Element>
) -> OperatorSink<Element, Element>

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

/// The sinks of `map`, `filter` and their pairs: a terminal event passes straight through (their
/// closures see only elements). They guard their input (``Sink/guardsItsInput``): `next` checks
/// `isForwarding`, and `forwardTermination` forwards one terminal event and disposes upstream.
@usableFromInline
class StatelessSink<Input, Output>: OperatorSink<Input, Output>, @unchecked Sendable {
    override final var guardsItsInput: Bool { true }

    override final var releasesWithItsSource: Bool { true }

    override final func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
