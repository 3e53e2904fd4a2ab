#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Converts between a virtual time representation and real dates and intervals.
///
/// Unlike RxSwift, converters and their time types are `Sendable`, because virtual-time schedulers
/// are `Sendable` (the Contracts article); every converter in practice is a value type over numbers or dates.
public protocol VirtualTimeConverterType: Sendable {
    /// The virtual absolute time type.
    associatedtype VirtualTimeUnit: Sendable
    /// The virtual interval type.
    associatedtype VirtualTimeIntervalUnit: Sendable

    /// The real date of a virtual time.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// The virtual time of a real date.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// The real interval of a virtual interval.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// The virtual interval of a real interval.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// How two virtual times compare.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The result of comparing two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The left time is earlier.
    case lessThan
    /// The times are equal.
    case equal
    /// The left time is later.
    case greaterThan
}
