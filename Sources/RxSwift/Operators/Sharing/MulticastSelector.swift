extension ObservableType {
    /// For each subscription, makes a subject with `subjectSelector`, multicasts the source through
    /// it, subscribes to the sequence `selector` builds from the multicast, then connects.
    ///
    /// Every subscription has its own subject and its own connection to the source; disposing the
    /// subscription disposes both. If either closure throws, the subscriber receives the error.
    /// The result completes or errors as the selector's sequence does.
    ///
    /// - Parameters:
    ///   - subjectSelector: Makes the subject for one subscription.
    ///   - selector: Builds the result from the multicast source; it may subscribe to it many times.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The selector's sequence, fed by one subscription to the source.
    ///
    /// RxJS: `connect(selector)`; Combine: no equivalent.
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        let subjectSelector =
            isolation == nil
            ? subjectSelector
            : rxIsolationChecked(subjectSelector, isolation, "multicast", callerFileID, callerLine)
        let selector =
            isolation == nil
            ? selector
            : rxIsolationChecked(selector, isolation, "multicast(selector:)", callerFileID, callerLine)
        return MulticastSelectorObservable(source: asObservable(), subjectSelector: subjectSelector, selector: selector)
    }
}

final class MulticastSelectorObservable<Source, Subject: SubjectType, Result>: Observable<Result>,
    @unchecked Sendable
where Subject.Observer.Element == Source {
    private let source: Observable<Source>
    private let subjectSelector: () throws -> Subject
    private let selector: (Observable<Subject.Element>) throws -> Observable<Result>

    init(
        source: Observable<Source>, subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) {
        self.source = source
        self.subjectSelector = subjectSelector
        self.selector = selector
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        let sink = MulticastSelectorSink(downstream: downstream)
        do {
            let subject = try subjectSelector()
            let connectable = MulticastConnectable(source: source, makeSubject: { subject }, ownsSubjects: true)
            let result = try selector(connectable.asObservable())
            sink.setUpstream(result.subscribe(SinkObserver(sink)))
            sink.connection.setDisposable(connectable.connect())
        } catch {
            sink.fail(error)
        }
        return sink.asDisposable
    }
}

/// Forwards the selector's sequence and owns the connection of one `multicast(_:selector:)` subscription.
final class MulticastSelectorSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    let connection = SingleAssignmentDisposable()

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }

    @inline(never)
    func fail(_ error: Error) {
        forwardTermination(.error(error))
    }

    override func disposeResources() {
        connection.dispose()
    }
}
