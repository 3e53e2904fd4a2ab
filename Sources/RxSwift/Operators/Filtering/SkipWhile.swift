extension ObservableType {
    /// Drops elements while `predicate` returns `true`, then passes on the first element for which it
    /// returns `false` and every element after it, without asking `predicate` again.
    ///
    /// Completes and errors when the source does; a throwing `predicate` ends the sequence with its
    /// error and disposes the source. No scheduler; no lock or allocation per element.
    /// RxJS: `skipWhile`; Combine: `drop(while:)` / `tryDrop(while:)`.
    public func skip(
        while predicate: @escaping (Element) throws -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let predicate =
            isolation == nil
            ? predicate : rxIsolationChecked(predicate, isolation, "skip(while:)", callerFileID, callerLine)
        return SkipWhileObservable(source: asObservable(), predicate: predicate)
    }
}

final class SkipWhileObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return SkipWhileSink(predicate: predicate, downstream: downstream).subscribed(to: source)
    }
}

final class SkipWhileSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let predicate: (Element) throws -> Bool
    @exclusivity(unchecked) private var skipping = true

    init(predicate: @escaping (Element) throws -> Bool, downstream: Sink<Element>) {
        self.predicate = predicate
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        if skipping {
            do {
                if try predicate(element) { return }
            } catch {
                forwardTermination(.error(error))
                return
            }
            skipping = false
        }
        downstream.next(element)
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
