/// Whether `take(while:behavior:)` and `take(until:behavior:)` pass on the element that ends the
/// sequence.
public enum TakeBehavior: Sendable {
    /// Pass on the element that ends the sequence, then complete.
    case inclusive
    /// Complete without passing on the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Passes on elements while `predicate` returns `true`; completes at the first element for which
    /// it returns `false`.
    ///
    /// With `.exclusive` (the default) that element is dropped; with `.inclusive` it is passed on
    /// before completing. Completing disposes the source. Completes and errors earlier when the
    /// source does; a throwing `predicate` ends the sequence with its error and disposes the source.
    /// No scheduler; no lock or allocation per element.
    ///
    /// RxJS: `takeWhile(predicate, inclusive)`; Combine: `prefix(while:)` / `tryPrefix(while:)`.
    public func take(
        while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "take(while:)", callerFileID, callerLine)
        return TakeWhileObservable(source: asObservable(), predicate: predicate, stopWhen: false, behavior: behavior)
    }

    /// Passes on elements until `predicate` returns `true`; completes at that element.
    ///
    /// With `.exclusive` (the default) that element is dropped; with `.inclusive` it is passed on
    /// before completing. Completing disposes the source. Completes and errors earlier when the
    /// source does; a throwing `predicate` ends the sequence with its error and disposes the source.
    /// No scheduler; no lock or allocation per element.
    ///
    /// RxJS: `takeWhile(x => !predicate(x), inclusive)`; Combine: `prefix(while:)` with the negated
    /// predicate.
    public func take(
        until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "take(until:)", callerFileID, callerLine)
        return TakeWhileObservable(source: asObservable(), predicate: predicate, stopWhen: true, behavior: behavior)
    }
}

/// Both `take(while:)` and `take(until:)`: the sequence stops at the first element for which
/// `predicate` returns `stopWhen`.
final class TakeWhileObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool
    private let stopWhen: Bool
    private let behavior: TakeBehavior

    init(
        source: Observable<Element>, predicate: @escaping (Element) throws -> Bool, stopWhen: Bool,
        behavior: TakeBehavior
    ) {
        self.source = source
        self.predicate = predicate
        self.stopWhen = stopWhen
        self.behavior = behavior
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return TakeWhileSink(
            predicate: predicate, stopWhen: stopWhen, inclusive: behavior == .inclusive, downstream: downstream
        ).subscribed(to: source)
    }
}

final class TakeWhileSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let predicate: (Element) throws -> Bool
    private let stopWhen: Bool
    private let inclusive: Bool
    /// Set before the inclusive element is forwarded, so a re-entrant element is not considered.
    @exclusivity(unchecked) private var done = false

    init(predicate: @escaping (Element) throws -> Bool, stopWhen: Bool, inclusive: Bool, downstream: Sink<Element>) {
        self.predicate = predicate
        self.stopWhen = stopWhen
        self.inclusive = inclusive
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding, !done else { return }
        let stop: Bool
        do {
            stop = try predicate(element) == stopWhen
        } catch {
            forwardTermination(.error(error))
            return
        }
        if !stop {
            downstream.next(element)
            return
        }
        done = true
        if inclusive { downstream.next(element) }
        forwardTermination(.completed)
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
