import Synchronization

extension ObservableType {
    /// Runs side effects for the events and the lifecycle of each subscription, and passes every
    /// event on unchanged.
    ///
    /// Per subscription, in RxSwift's order: `onSubscribe` before the source is subscribed,
    /// `onSubscribed` once subscribing returned; for each element `onNext`, delivery downstream,
    /// `afterNext`; for the terminal event `onError`/`onCompleted`, delivery, `afterError`/
    /// `afterCompleted`; then the source is disposed and `onDispose` runs. `onDispose` runs once,
    /// whether the sequence terminated, the subscription was disposed, or its source was released
    /// with the subscription undisposed (a dropped subject: then at the release; see "Contracts",
    /// "Lifetime"; RxSwift never runs it then); for a source that terminates while it is being
    /// subscribed, after `onSubscribed`.
    ///
    /// An error thrown by `onNext`, `afterNext`, `onError` or `onCompleted` ends the sequence with
    /// that error instead and disposes the source (an error thrown by `onNext` means the element is
    /// not delivered). An error thrown by `afterError` or `afterCompleted` is dropped: the terminal
    /// event was already delivered, and RxSwift, which forwards it anyway, breaks the grammar there.
    /// No scheduler; no lock or allocation per element. RxJS: `tap`; Combine: `handleEvents`.
    ///
    /// - Parameters:
    ///   - onNext: Runs before each element is delivered.
    ///   - afterNext: Runs after each element was delivered.
    ///   - onError: Runs before the error is delivered.
    ///   - afterError: Runs after the error was delivered.
    ///   - onCompleted: Runs before completion is delivered.
    ///   - afterCompleted: Runs after completion was delivered.
    ///   - onSubscribe: Runs before the source is subscribed.
    ///   - onSubscribed: Runs after the source was subscribed.
    ///   - onDispose: Runs after the subscription to the source was disposed, for any reason.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The source sequence with the side effects attached.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil, afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil, afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil, onDispose: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let onNext =
            isolation == nil
            ? onNext : rxIsolationChecked(onNext, isolation, "do(onNext:)", callerFileID, callerLine)
        let afterNext =
            isolation == nil
            ? afterNext
            : rxIsolationChecked(afterNext, isolation, "do(afterNext:)", callerFileID, callerLine)
        let onError =
            isolation == nil
            ? onError : rxIsolationChecked(onError, isolation, "do(onError:)", callerFileID, callerLine)
        let afterError =
            isolation == nil
            ? afterError
            : rxIsolationChecked(afterError, isolation, "do(afterError:)", callerFileID, callerLine)
        let onCompleted =
            isolation == nil
            ? onCompleted
            : rxIsolationChecked(onCompleted, isolation, "do(onCompleted:)", callerFileID, callerLine)
        let afterCompleted =
            isolation == nil
            ? afterCompleted
            : rxIsolationChecked(afterCompleted, isolation, "do(afterCompleted:)", callerFileID, callerLine)
        let onSubscribe =
            isolation == nil
            ? onSubscribe
            : rxIsolationChecked(onSubscribe, isolation, "do(onSubscribe:)", callerFileID, callerLine)
        let onSubscribed =
            isolation == nil
            ? onSubscribed
            : rxIsolationChecked(onSubscribed, isolation, "do(onSubscribed:)", callerFileID, callerLine)
        return DoObservable(
            source: asObservable(),
            handlers: DoHandlers(
                onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted),
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose)
    }
}

/// The event callbacks of `do`, kept apart so that the sink never builds an `Event`.
struct DoHandlers<Element> {
    let onNext: ((Element) throws -> Void)?
    let afterNext: ((Element) throws -> Void)?
    let onError: ((Swift.Error) throws -> Void)?
    let afterError: ((Swift.Error) throws -> Void)?
    let onCompleted: (() throws -> Void)?
    let afterCompleted: (() throws -> Void)?
}

final class DoObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let handlers: DoHandlers<Element>
    private let onSubscribe: (() -> Void)?
    private let onSubscribed: (() -> Void)?
    private let onDispose: (() -> Void)?

    init(
        source: Observable<Element>, handlers: DoHandlers<Element>, onSubscribe: (() -> Void)?,
        onSubscribed: (() -> Void)?, onDispose: (() -> Void)?
    ) {
        self.source = source
        self.handlers = handlers
        self.onSubscribe = onSubscribe
        self.onSubscribed = onSubscribed
        self.onDispose = onDispose
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        onSubscribe?()
        let sink = DoSink(handlers: handlers, downstream: downstream)
        let subscription = source.subscribe(sink: sink)
        onSubscribed?()
        if let onDispose {
            // As in RxSwift, `onDispose` follows the source's disposal, and it is handed to the sink
            // only now: a source that terminated while being subscribed is disposed (and `onDispose`
            // runs) after `onSubscribed`.
            sink.setUpstream(
                Disposables.create {
                    subscription.dispose()
                    onDispose()
                })
        } else {
            sink.setUpstream(subscription)
        }
        return sink.asDisposable
    }
}

final class DoSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let handlers: DoHandlers<Element>
    /// Set while the terminal event and its `after…` callback run: a disposal meanwhile (a subscriber
    /// that disposes when it receives the terminal event, as `subscribe(onNext:…)` does) is left to
    /// the end of `terminate`, so that `onDispose` follows `afterCompleted`/`afterError` as in RxSwift.
    private let terminating = Atomic<Bool>(false)

    init(handlers: DoHandlers<Element>, downstream: Sink<Element>) {
        self.handlers = handlers
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        do {
            try handlers.onNext?(element)
            // `forward` checks again: `onNext` may have disposed the subscription (RxSwift then drops
            // the element too, and still runs `afterNext`).
            forward(element)
            try handlers.afterNext?(element)
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func terminate(_ termination: Termination) {
        guard isForwarding else { return }
        do {
            switch termination {
            case .completed: try handlers.onCompleted?()
            case .error(let error): try handlers.onError?(error)
            }
        } catch {
            forwardTermination(.error(error))
            return
        }
        // Delivered here rather than through `forwardTermination`, which would dispose the source
        // (and run `onDispose`) before the `after…` callback; `dispose()` follows that callback.
        terminating.store(true, ordering: .sequentiallyConsistent)
        if isForwarding { downstream.terminate(termination) }
        switch termination {
        case .completed: try? handlers.afterCompleted?()
        case .error(let error): try? handlers.afterError?(error)
        }
        terminating.store(false, ordering: .sequentiallyConsistent)
        dispose()
    }

    override func dispose() {
        if terminating.load(ordering: .sequentiallyConsistent) { return }
        super.dispose()
    }
}
