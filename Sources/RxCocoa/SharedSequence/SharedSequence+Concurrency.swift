import RxSwift

extension SharedSequence where Element: Sendable {
    /// The elements as an `AsyncStream` (a shared sequence cannot fail): reading `values` on the
    /// main actor subscribes (elements are buffered until iterated); the stream ends with the
    /// sequence's completion; cancelling the iterating task disposes the subscription at once.
    ///
    /// RxSwift: the same (RxCocoa 6.5+, `@MainActor`).
    @MainActor
    public var values: AsyncStream<Element> {
        let source = asObservable()
        return AsyncStream { continuation in
            let subscription = source.subscribe(
                onNext: { continuation.yield($0) }, onCompleted: { continuation.finish() })
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}
