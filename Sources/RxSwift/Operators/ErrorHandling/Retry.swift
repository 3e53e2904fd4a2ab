extension ObservableType {
    /// Subscribes to the sequences of `sequence` one after another, moving to the next one when the
    /// current one errors, until one completes.
    ///
    /// Elements of every subscribed sequence pass through. The first sequence that completes completes
    /// the result. When the last sequence errors, its error is delivered; an empty `sequence` gives a
    /// sequence that completes at once. `sequence` is iterated lazily, one sequence per error, so it
    /// may be infinite. The next sequence is subscribed when the previous one errors, on the thread
    /// that delivered the error, after the failed subscription was disposed; errors delivered during a
    /// subscription are handled after it returns, so a sequence that fails synchronously, again and
    /// again, does not grow the stack. Disposing disposes the current subscription.
    ///
    /// A sequence of `sequence` that is itself a `catch(sequence:)` over the same type of sequence is
    /// flattened into this subscription (tail recursion, as RxSwift does). RxSwift's anomaly comes
    /// with it, and is kept: an *empty* nested `catch(sequence:)` does not complete the result (as
    /// it would if subscribed on its own) but moves on to the next sequence of `sequence`.
    ///
    /// - Parameter sequence: The sequences to try, in order.
    /// - Returns: The elements of the sequences up to the first one that completes.
    ///
    /// RxJS: `onErrorResumeNext` (which also moves on after completion).
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        SequentialSourcesObservable(sources: sequence, count: nil, movesOn: .afterError)
    }

    /// Deprecated spelling of ``catch(sequence:)``. (RxSwift's deprecation message names
    /// `catch(onSuccess:onFailure:onDisposed:)`, which does not exist; this one names the real
    /// replacement.)
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }

    /// Resubscribes to the source each time it errors, until it completes. **The result may never
    /// end.**
    ///
    /// Elements pass through; the source's completion completes the result; errors are never
    /// delivered. Each resubscription happens on the thread that delivered the error, after the failed
    /// subscription was disposed; a source that errors synchronously during its subscription is
    /// resubscribed after that subscription returns, so the stack does not grow (the loop runs on
    /// that thread until the source stops failing). Disposing disposes the current subscription.
    ///
    /// - Returns: The source's elements, repeated after each error.
    ///
    /// RxJS: `retry()`; Combine: `retry(.max)`.
    public func retry() -> Observable<Element> {
        let source = asObservable()
        return SequentialSourcesObservable(
            sources: Swift.repeatElement(source, count: .max), count: nil, movesOn: .afterError)
    }

    /// Subscribes to the source up to `maxAttemptCount` times in all, resubscribing after each error,
    /// until it completes; the error of the last attempt is delivered.
    ///
    /// `retry(1)` makes one attempt and does not retry; to retry once after an error, use `retry(2)`.
    /// As in RxSwift, `retry(0)` completes at once without subscribing (and a negative count is
    /// treated as 0 where RxSwift traps). Otherwise as ``retry()``.
    ///
    /// - Parameter maxAttemptCount: The number of subscriptions to make at most.
    /// - Returns: The source's elements, repeated after each error up to the last attempt.
    ///
    /// RxJS: `retry(maxAttemptCount - 1)`; Combine: `retry(maxAttemptCount - 1)`.
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        let source = asObservable()
        return SequentialSourcesObservable(
            sources: Swift.repeatElement(source, count: max(maxAttemptCount, 0)), count: nil, movesOn: .afterError)
    }
}
