import RxSwift

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The converter of ``TestScheduler``: virtual time is ticks, each `resolution` seconds long.
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType {
    /// Virtual time is a tick count.
    public typealias VirtualTimeUnit = Int
    /// Virtual intervals are tick counts.
    public typealias VirtualTimeIntervalUnit = Int

    private let resolution: Double

    init(resolution: Double) {
        self.resolution = resolution
    }

    /// The date `virtualTime` ticks after the reference date.
    public func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime {
        Date(timeIntervalSince1970: Double(virtualTime) * resolution)
    }

    /// The tick of `time`, rounded to the nearest tick.
    public func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit {
        Int((time.timeIntervalSince1970 / resolution).rounded())
    }

    /// The seconds of `virtualTimeInterval` ticks.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> Double {
        Double(virtualTimeInterval) * resolution
    }

    /// The ticks of `timeInterval` seconds, rounded to the nearest tick.
    public func convertToVirtualTimeInterval(_ timeInterval: Double) -> VirtualTimeIntervalUnit {
        Int((timeInterval / resolution).rounded())
    }

    /// `time` plus `offset` ticks.
    public func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit {
        time + offset
    }

    /// Compares two ticks.
    public func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}
