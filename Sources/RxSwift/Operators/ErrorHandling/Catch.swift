import Synchronization

extension ObservableType {
    /// Continues a sequence that ends with an error with the sequence `handler` returns for that error.
    ///
    /// Elements and completion of the source pass through. When the source errors, `handler` is
    /// called with the error (on the thread that delivered it) and its sequence is subscribed; its
    /// events, including its terminal event, are delivered downstream. A second error (from the
    /// handler's sequence) is delivered, not caught again. A throwing `handler` ends the sequence
    /// with the thrown error. Disposing disposes the current subscription, whichever it is. No
    /// scheduler of its own.
    ///
    /// - Parameters:
    ///   - handler: Returns the sequence to continue with after `error`.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The source's elements, then, after an error, the handler's sequence.
    ///
    /// RxJS: `catchError`; Combine: `catch` / `tryCatch`.
    public func `catch`(
        _ handler: @escaping (Swift.Error) throws -> Observable<Element>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let handler =
            isolation == nil
            ? handler : rxIsolationChecked(handler, isolation, "catch", callerFileID, callerLine)
        return CatchObservable(source: asObservable(), handler: handler)
    }

    /// Deprecated spelling of ``catch(_:isolation:callerFileID:callerLine:)``.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(
        _ handler: @escaping (Swift.Error) throws -> Observable<Element>, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let handler =
            isolation == nil
            ? handler : rxIsolationChecked(handler, isolation, "catchError", callerFileID, callerLine)
        return `catch`(handler)
    }

    /// Ends a sequence that errors with `element`: on an error, delivers `element` and completes,
    /// at the time of the error.
    ///
    /// Elements and completion of the source pass through. No scheduler of its own. RxSwift builds
    /// this as `catch { _ in .just(element) }`; the events and their timing are the same.
    ///
    /// - Parameter element: The last element, delivered in place of an error.
    /// - Returns: The source's elements, then `element` and completion if the source errors.
    ///
    /// RxJS: `catchError(() => of(element))`; Combine: `replaceError(with:)`.
    @inlinable
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        CatchAndReturnObservable(source: asObservable(), element: element)
    }

    /// Deprecated spelling of ``catchAndReturn(_:)``.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }
}

final class CatchObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let handler: (Swift.Error) throws -> Observable<Element>

    init(source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) {
        self.source = source
        self.handler = handler
        super.init()
        // The handler's sequence is unknown until an error; it may emit on the trampoline, and an error
        // that arrives during `subscribe` subscribes it there and then.
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return CatchSink(handler: handler, downstream: downstream).subscribed(to: source)
    }
}

/// Receives the source; on its error, subscribes a ``TakeOverSink`` to the handler's sequence.
///
/// The source's subscription stays the upstream until the whole subscription ends: the source has
/// terminated by then, and every source of the library releases its own resources on termination.
///
/// Thread-safety: `handlerSink` is written once, from the source's error, and taken by
/// `disposeResources` from any thread; both go through `lock`.
final class CatchSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let handler: (Swift.Error) throws -> Observable<Element>
    private let lock = Mutex<Void>(())
    private var handlerSink: TakeOverSink<Element>?

    init(handler: @escaping (Swift.Error) throws -> Observable<Element>, downstream: Sink<Element>) {
        self.handler = handler
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        switch termination {
        case .completed:
            forwardTermination(termination)
        case .error(let error):
            handle(error)
        }
    }

    @inline(never)
    private func handle(_ error: Swift.Error) {
        guard isForwarding else { return }
        let continuation: Observable<Element>
        do {
            continuation = try handler(error)
        } catch {
            forwardTermination(.error(error))
            return
        }
        let sink = TakeOverSink(parent: self)
        let installed: Bool = lock.locked {
            if isDisposed { return false }
            handlerSink = sink
            return true
        }
        if installed { sink.subscribeLater(to: continuation) }
    }

    /// Before an error, the source is all that drives it; after one, the handler's sequence
    /// (``TakeOverSink``).
    override var releasesWithItsSource: Bool { true }

    override func disposeResources() {
        let sink: TakeOverSink<Element>? = lock.locked {
            defer { handlerSink = nil }
            return handlerSink
        }
        sink?.dispose()
    }
}

/// Built by inlinable code, its sink made by a closure written there (see `CreateObservable`).
@usableFromInline
final class CatchAndReturnObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let element: Element
    private let makeSink: (Element, Sink<Element>) -> CatchAndReturnSink<Element>

    @usableFromInline
    init(
        source: Observable<Element>, element: Element,
        makeSink: @escaping (Element, Sink<Element>) -> CatchAndReturnSink<Element> = {
            CatchAndReturnSink(element: $0, downstream: $1)
        }
    ) {
        self.source = source
        self.element = element
        self.makeSink = makeSink
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return makeSink(element, downstream).subscribed(to: source)
    }
}

@usableFromInline
final class CatchAndReturnSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let element: Element

    @usableFromInline
    init(element: Element, downstream: Sink<Element>) {
        self.element = element
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        if case .error = termination {
            forward(element)
            forwardTermination(.completed)
        } else {
            forwardTermination(termination)
        }
    }
}
