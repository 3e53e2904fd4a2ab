import RxSwift

/// A sequence whose operators block the calling thread until they have their answer.
///
/// Create one with `toBlocking(timeout:)`. Every operator subscribes to the source, waits, and
/// disposes the subscription before it returns, whether it got its answer, an error or a timeout.
public struct BlockingObservable<Element>: Sendable {
    let timeout: Double?
    let source: Observable<Element>
}
