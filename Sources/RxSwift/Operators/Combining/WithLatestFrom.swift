extension ObservableType {
    /// Combines each source element with the latest element of `second`, using `resultSelector`.
    ///
    /// `second` is subscribed first, then the source. Source elements that arrive before `second`'s
    /// first element are dropped. The source's terminal events are forwarded; `second`'s error is
    /// forwarded, while its completion only disposes its subscription (its last element stays in
    /// use). An error thrown by `resultSelector` is forwarded and ends both subscriptions. No
    /// scheduler is used; events are serialized when the two sequences race. `resultSelector` runs
    /// on the source's thread, outside any lock.
    ///
    /// - Parameters:
    ///   - second: The sequence whose latest element is combined.
    ///   - resultSelector: Combines a source element with `second`'s latest element.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: One result per source element that arrived after `second`'s first element.
    ///
    /// RxJS: `withLatestFrom(other, project)`; Combine: none.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<ResultType> {
        let resultSelector =
            isolation == nil
            ? resultSelector
            : rxIsolationChecked(
                resultSelector, isolation, "withLatestFrom(resultSelector:)", callerFileID, callerLine)
        return WithLatestFromObservable(source: asObservable(), other: second.asObservable(), selector: resultSelector)
    }

    /// Replaces each source element with the latest element of `second`.
    ///
    /// Behaves as ``withLatestFrom(_:resultSelector:isolation:callerFileID:callerLine:)`` with a selector that returns `second`'s
    /// element: source elements before `second`'s first element are dropped.
    ///
    /// - Parameter second: The sequence whose latest element is emitted.
    /// - Returns: `second`'s latest element, once per source element.
    ///
    /// RxJS: `withLatestFrom(other)` (which pairs both); Combine: none.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFromObservable(source: asObservable(), other: second.asObservable(), selector: { $1 })
    }
}

final class WithLatestFromObservable<First, Second, Result>: TwoSourceProducer<First, Second, Result>,
    @unchecked Sendable
{
    private let selector: (First, Second) throws -> Result

    init(source: Observable<First>, other: Observable<Second>, selector: @escaping (First, Second) throws -> Result) {
        self.selector = selector
        super.init(source: source, other: other)
    }

    override func subscribe(sink downstream: Sink<Result>) -> Disposable {
        let sink = WithLatestFromSink(selector: selector, downstream: downstream)
        sink.subscribe(other: other)
        sink.setUpstream(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}

/// Thread-safety: the `latest` reference is guarded by the base's `lock`; the box it points to is
/// never mutated (each element of `second` gets a new one), so its value is read after unlocking and
/// the per-element path handles no `Optional` of a generic type.
final class WithLatestFromSink<First, Second, Result>: TwoSourceSink<First, Second, Result>, @unchecked Sendable {
    @exclusivity(unchecked) private var latest: TwoSourceBox<Second>?
    private let selector: (First, Second) throws -> Result

    init(selector: @escaping (First, Second) throws -> Result, downstream: Sink<Result>) {
        self.selector = selector
        super.init(downstream: downstream)
    }

    override func next(_ element: First) {
        guard let latest = locked({ latest }) else { return }
        let result: Result
        do {
            result = try selector(element, latest.value)
        } catch {
            send(.terminate(.error(error)))
            return
        }
        send(.next(result))
    }

    override func terminate(_ termination: Termination) {
        send(.terminate(termination))
    }

    override func otherNext(_ element: Second) {
        let box = TwoSourceBox(element)
        let replaced = locked { () -> TwoSourceBox<Second>? in
            defer { latest = box }
            return latest
        }
        // Released after unlocking: a deinitializer may run code.
        withExtendedLifetime(replaced) {}
    }

    override func otherTerminate(_ termination: Termination) {
        switch termination {
        case .completed: otherSubscription.dispose()
        case .error: send(.terminate(termination))
        }
    }

    override func disposeResources() {
        let dropped = locked { () -> TwoSourceBox<Second>? in
            defer { latest = nil }
            return latest
        }
        withExtendedLifetime(dropped) {}
        super.disposeResources()
    }
}
