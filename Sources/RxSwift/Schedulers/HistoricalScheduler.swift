#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A virtual-time scheduler whose clock is a `Date`, for replaying historical data.
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}

/// The converter of ``HistoricalScheduler``: virtual time is the date itself.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType, Sendable {
    /// Virtual time is a date.
    public typealias VirtualTimeUnit = RxTime
    /// Virtual intervals are seconds.
    public typealias VirtualTimeIntervalUnit = TimeInterval

    /// Creates the converter (it has no configuration).
    public init() {}

    /// Returns `virtualTime`.
    public func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime { virtualTime }
    /// Returns `time`.
    public func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit { time }
    /// Returns `virtualTimeInterval`.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval {
        virtualTimeInterval
    }
    /// Returns `timeInterval`.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit {
        timeInterval
    }
    /// `time` plus `offset` seconds.
    public func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit {
        time.addingTimeInterval(offset)
    }
    /// Compares two dates.
    public func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}
