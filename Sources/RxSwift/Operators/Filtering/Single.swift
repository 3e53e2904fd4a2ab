extension ObservableType {
    /// Passes on the source's only element, and fails unless the source has exactly one.
    ///
    /// As in RxSwift, this is not a wait-for-completion operator: the element is passed on at once,
    /// when it arrives, and a second element ends the sequence at that moment with
    /// `RxError.moreThanOneElement` (the second element itself is not passed on, and the source is
    /// disposed). Completion after one element completes; completion with none gives
    /// `RxError.noElements`. Errors are forwarded. No scheduler.
    ///
    /// RxJS: `single()`; Combine: none (Combine's `first()`/`last()` do not check the count).
    public func single() -> Observable<Element> {
        SingleObservable(source: asObservable(), predicate: nil)
    }

    /// Passes on the only element that satisfies `predicate`, and fails unless exactly one does.
    ///
    /// Elements that do not satisfy `predicate` are dropped. The matching element is passed on at
    /// once; a second matching element ends the sequence at that moment with
    /// `RxError.moreThanOneElement`; completion without a match gives `RxError.noElements`. A throwing
    /// `predicate` ends the sequence with its error and disposes the source. No scheduler.
    ///
    /// RxJS: `single(predicate)`; Combine: none.
    public func single(
        _ predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "single", callerFileID, callerLine)
        return SingleObservable(source: asObservable(), predicate: predicate)
    }
}

final class SingleObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: ((Element) throws -> Bool)?

    init(source: Observable<Element>, predicate: ((Element) throws -> Bool)?) {
        self.source = source
        self.predicate = predicate
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return SingleSink(predicate: predicate, downstream: downstream).subscribed(to: source)
    }
}

final class SingleSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let predicate: ((Element) throws -> Bool)?
    @exclusivity(unchecked) private var seen = false

    init(predicate: ((Element) throws -> Bool)?, downstream: Sink<Element>) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        if let predicate {
            do {
                guard try predicate(element) else { return }
            } catch {
                forwardTermination(.error(error))
                return
            }
        }
        if seen {
            forwardTermination(.error(RxError.moreThanOneElement))
            return
        }
        // Set before forwarding, as in RxSwift: a re-entrant second element is an error too.
        seen = true
        downstream.next(element)
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .completed: forwardTermination(seen ? .completed : .error(RxError.noElements))
        case .error: forwardTermination(termination)
        }
    }
}
