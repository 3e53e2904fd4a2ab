import RxSwift

/// A sequence that cannot error, delivers its events on its strategy's scheduler and shares one
/// subscription to its source among all its observers, the way its ``SharingStrategyProtocol`` says.
///
/// ``Driver`` (replays its latest element) and ``Signal`` (replays nothing) are the two strategies
/// RxCocoa ships. Every operator on a shared sequence returns a shared sequence of the same strategy,
/// whose source is shared again, as in RxCocoa.
///
/// Thread-safety: an immutable struct around an `Observable`, which is itself safe to share.
///
/// RxSwift: `SharedSequence` (RxCocoa).
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType,
    ObservableConvertibleType, @unchecked Sendable
{
    @usableFromInline let source: Observable<Element>

    /// Shares `source` with the strategy. `source` must not error and must deliver on the
    /// strategy's scheduler.
    @inlinable
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps `source` as it is, unshared: for sources that need no sharing (`just`, `empty`, …).
    /// For the strategies whose sharing is `share(replay: 0 or 1, scope: .whileConnected)` (Driver: 1,
    /// Signal: 0), that replay, so operators can fuse with the share; `nil` for other strategies.
    /// Decided at compile time where the strategy is known.
    @inlinable
    static var fusedShareReplays: Bool? {
        if SharingStrategy.self == DriverSharingStrategy.self { return true }
        if SharingStrategy.self == SignalSharingStrategy.self { return false }
        return nil
    }

    @inlinable
    init(raw: Observable<Element>) {
        self.source = raw
    }

    /// Wraps `source` as it is, for a module that adds a stage which changes no event to a shared
    /// sequence that already keeps its strategy's contract (RxCocoaInspect's `inspect`). Not public API:
    /// a source that errors or delivers off the strategy's scheduler would break the sequence's promise.
    @_spi(SharedSequenceWrapping) @inlinable
    public init(keepingContractOf source: Observable<Element>) {
        self.source = source
    }

    /// The shared observable sequence.
    @inlinable
    public func asObservable() -> Observable<Element> {
        source
    }

    /// Returns `self`.
    @inlinable
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        self
    }
}

/// How a ``SharedSequence`` delivers and shares: the scheduler its events are delivered on and the
/// sharing operator applied to its source.
///
/// RxSwift: `SharingStrategyProtocol` (RxCocoa).
public protocol SharingStrategyProtocol {
    /// The scheduler every event of the sequence is delivered on.
    static var scheduler: SchedulerType { get }

    /// Shares `source` among the sequence's observers (for example with `share(replay:scope:)`).
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be turned into a ``SharedSequence``; the operators of shared sequences are
/// defined on it.
///
/// RxSwift: `SharedSequenceConvertibleType` (RxCocoa).
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// The sequence's sharing strategy.
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// The value as a shared sequence.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    /// The shared sequence as an observable sequence.
    @inlinable
    public func asObservable() -> Observable<Element> {
        asSharedSequence().asObservable()
    }
}

extension SharedSequence {
    /// A sequence that completes at once, on the strategy's scheduler.
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// A sequence that never delivers anything.
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never())
    }

    /// A sequence that delivers `element` and completes, on the strategy's scheduler.
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.just(element).subscribe(on: SharingStrategy.scheduler))
    }

    /// A sequence that calls `observableFactory` for each subscription and delivers what the
    /// sequence it returns delivers. The result is shared.
    public static func deferred(
        _ observableFactory: @escaping () -> SharedSequence<SharingStrategy, Element>,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> SharedSequence<SharingStrategy, Element>
    {
        let observableFactory =
            isolation == nil
            ? observableFactory
            : rxIsolationChecked(observableFactory, isolation, "deferred", callerFileID, callerLine)
        return SharedSequence(Observable.deferred { observableFactory().asObservable() })
    }

    /// A sequence that delivers `elements` one by one on the strategy's scheduler, then completes.
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence that delivers the elements of `array` on the strategy's scheduler, then completes.
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence that delivers the elements of `sequence` on the strategy's scheduler, then
    /// completes.
    public static func from<Source: Sequence>(_ sequence: Source) -> SharedSequence<SharingStrategy, Element>
    where Source.Element == Element {
        SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence that delivers `optional`'s value if it has one, then completes, on the strategy's
    /// scheduler.
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }
}

extension SharedSequence where Element: RxAbstractInteger {
    /// A sequence that delivers 0, 1, 2, … every `period`, timed on the strategy's scheduler.
    public static func interval(_ period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence that delivers 0 after `dueTime`, then 1, 2, … every `period`, timed on the
    /// strategy's scheduler.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval)
        -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}
