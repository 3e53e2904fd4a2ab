import RxSwift

/// A shared sequence for UI events: it cannot error, delivers on the main scheduler (see
/// ``SharingScheduler``) and replays nothing: an observer sees only what happens after it subscribed.
///
/// Made with `asSignal(onErrorJustReturn:)` and its siblings; consumed with `emit(…)`.
///
/// RxSwift: `Signal` (RxCocoa).
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// The strategy of ``Signal``: events on ``SharingScheduler/make``'s scheduler, shared with
/// `share(scope: .whileConnected)`: no replay; the source is subscribed again once every observer
/// has left.
///
/// RxSwift: `SignalSharingStrategy` (RxCocoa).
public struct SignalSharingStrategy: SharingStrategyProtocol {
    /// A new scheduler from ``SharingScheduler/make``.
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    /// Shares `source` with `share(scope: .whileConnected)`.
    @inlinable
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// The value as a ``Signal``.
    public func asSignal() -> Signal<Element> {
        asSharedSequence()
    }
}
