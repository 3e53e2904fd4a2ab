import RxSwift

/// A shared sequence for UI state: it cannot error, delivers on the main scheduler (see
/// ``SharingScheduler``) and replays its latest element to each new observer while it has any.
///
/// Made with `asDriver(onErrorJustReturn:)` and its siblings; consumed with `drive(…)`.
///
/// RxSwift: `Driver` (RxCocoa).
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// The strategy of ``Driver``: events on ``SharingScheduler/make``'s scheduler, shared with
/// `share(replay: 1, scope: .whileConnected)`: the latest element is replayed to new observers, and
/// the source is subscribed again (with nothing replayed) once every observer has left.
///
/// RxSwift: `DriverSharingStrategy` (RxCocoa).
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// A new scheduler from ``SharingScheduler/make``.
    public static var scheduler: SchedulerType { SharingScheduler.make() }

    /// Shares `source` with `share(replay: 1, scope: .whileConnected)`.
    @inlinable
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// The value as a ``Driver``.
    public func asDriver() -> Driver<Element> {
        asSharedSequence()
    }
}
