import Synchronization

extension ObservableType {
    /// Resubscribes to the source after an error when the trigger sequence built by
    /// `notificationHandler` emits an element.
    ///
    /// For each subscription, `notificationHandler` is called once, at subscription, with the
    /// sequence of the source's errors; the trigger it returns is subscribed before the source. When
    /// the source errors with an `Error`, the error is emitted on that sequence; the trigger's next
    /// element then resubscribes to the source, its completion completes the result and its error
    /// is delivered. Elements the trigger emits while the source runs are ignored. As in RxSwift, a
    /// trigger that terminates while the source runs has no effect until the source errors: then the
    /// trigger's completion or error is delivered at once. An error that is not an `Error` is
    /// delivered without consulting the trigger. The source's completion completes the result.
    /// Resubscription happens on the thread of the trigger's element and does not grow the stack
    /// (see ``retry()``). Disposing disposes the source and the trigger.
    ///
    /// - Parameters:
    ///   - notificationHandler: Builds the trigger from the sequence of errors.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The source's elements, repeated after each error the trigger answers with an element.
    ///
    /// RxJS: `retry({ delay: … })` / the former `retryWhen`.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let notificationHandler =
            isolation == nil
            ? notificationHandler
            : rxIsolationChecked(notificationHandler, isolation, "retry(when:)", callerFileID, callerLine)
        return RetryWhenObservable(
            source: asObservable(), errorType: Error.self,
            notificationHandler: { notificationHandler($0).asObservable() })
    }

    /// Resubscribes to the source after an error when the trigger sequence built by
    /// `notificationHandler` emits an element; every error is passed to the trigger. Otherwise as the
    /// form of `retry(when:)` that takes an `Observable` of a specific error type.
    ///
    /// - Parameters:
    ///   - notificationHandler: Builds the trigger from the sequence of errors.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The source's elements, repeated after each error the trigger answers with an element.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let notificationHandler =
            isolation == nil
            ? notificationHandler
            : rxIsolationChecked(notificationHandler, isolation, "retry(when:)", callerFileID, callerLine)
        return RetryWhenObservable(
            source: asObservable(), errorType: (any Swift.Error).self,
            notificationHandler: { notificationHandler($0).asObservable() })
    }

    /// Deprecated spelling of `retry(when:)` for a handler of a given error type.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let notificationHandler =
            isolation == nil
            ? notificationHandler
            : rxIsolationChecked(notificationHandler, isolation, "retryWhen", callerFileID, callerLine)
        return retry(when: notificationHandler)
    }

    /// Deprecated spelling of `retry(when:)` for a handler of any error.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let notificationHandler =
            isolation == nil
            ? notificationHandler
            : rxIsolationChecked(notificationHandler, isolation, "retryWhen", callerFileID, callerLine)
        return retry(when: notificationHandler)
    }
}

final class RetryWhenObservable<Element, ErrorType, Trigger>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let notificationHandler: (Observable<ErrorType>) -> Observable<Trigger>

    init(
        source: Observable<Element>, errorType: ErrorType.Type,
        notificationHandler: @escaping (Observable<ErrorType>) -> Observable<Trigger>
    ) {
        self.source = source
        self.notificationHandler = notificationHandler
        super.init()
        // The trigger is built at subscription; it is subscribed first and may emit on the trampoline.
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let errors = PublishSubject<ErrorType>()
        let trigger = notificationHandler(errors.asObservable())
        let sink = RetryWhenSink<Element, ErrorType, Trigger>(source: source, errors: errors, downstream: downstream)
        sink.start(trigger: trigger)
        return sink.asDisposable
    }
}

/// Runs the attempts (each through a ``ForwardingSink``, with the drain loop of
/// ``SequentialSourcesSink``) and listens to the trigger through a ``RetryTriggerSink``.
///
/// Thread-safety: the source's errors and the trigger's events may come from different threads;
/// `awaitingTrigger` and `triggerEnd` are guarded by `lock`. Attempts are serialized by
/// `pendingAttempts`.
final class RetryWhenSink<Element, ErrorType, Trigger>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let errors: PublishSubject<ErrorType>
    private let currentAttempt = SerialDisposable()
    private let pendingAttempts = Atomic<Int>(0)
    private let lock = Mutex<Void>(())
    /// The source errored and the trigger has not answered yet.
    private var awaitingTrigger = false
    /// How the trigger ended while the source was running; delivered at the source's next error.
    private var triggerEnd: Termination?

    init(source: Observable<Element>, errors: PublishSubject<ErrorType>, downstream: Sink<Element>) {
        self.source = source
        self.errors = errors
        super.init(downstream: downstream)
    }

    func start(trigger: Observable<Trigger>) {
        let triggerSink = RetryTriggerSink(parent: self)
        setUpstream(Disposables.create(currentAttempt, triggerSink))
        triggerSink.subscribeLater(to: trigger)
        requestAttempt()
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .completed:
            forwardTermination(.completed)
        case .error(let error):
            sourceFailed(error)
        }
    }

    @inline(never)
    private func sourceFailed(_ error: Swift.Error) {
        guard isForwarding else { return }
        guard let notification = error as? ErrorType else {
            forwardTermination(.error(error))
            return
        }
        // The failed attempt is disposed before the trigger hears of the error, as in RxSwift.
        currentAttempt.disposable = Disposables.create()
        let end: Termination? = lock.locked {
            if let triggerEnd { return triggerEnd }
            awaitingTrigger = true
            return nil
        }
        if let end {
            forwardTermination(end)
        } else {
            errors.onNext(notification)
        }
    }

    func triggerNext() {
        let retry: Bool = lock.locked {
            defer { awaitingTrigger = false }
            return awaitingTrigger
        }
        if retry { requestAttempt() }
    }

    func triggerTerminated(_ termination: Termination) {
        let deliver: Bool = lock.locked {
            if awaitingTrigger { return true }
            if triggerEnd == nil { triggerEnd = termination }
            return false
        }
        if deliver { forwardTermination(termination) }
    }

    private func requestAttempt() {
        if pendingAttempts.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 { return }
        var requests = 1
        repeat {
            if isForwarding {
                let attempt = ForwardingSink(downstream: self)
                currentAttempt.disposable = attempt
                attempt.subscribeLater(to: source)
            }
            requests = pendingAttempts.wrappingSubtract(requests, ordering: .acquiringAndReleasing).newValue
        } while requests != 0
    }
}

/// Receives the trigger and reports to the parent; never forwards anything itself.
final class RetryTriggerSink<Trigger, Element, ErrorType>: OperatorSink<Trigger, Element>, @unchecked Sendable {
    private let parent: RetryWhenSink<Element, ErrorType, Trigger>

    init(parent: RetryWhenSink<Element, ErrorType, Trigger>) {
        self.parent = parent
        super.init(downstream: parent)
    }

    override func next(_ element: Trigger) {
        guard isForwarding else { return }
        parent.triggerNext()
    }

    override func terminate(_ termination: Termination) {
        guard isForwarding else { return }
        parent.triggerTerminated(termination)
        dispose()
    }
}
