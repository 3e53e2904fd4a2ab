/// The libraries compared in every workload.
public enum Flavour: String, CaseIterable, Sendable {
    case swiftRx = "swift-rx"
    case openCombine = "OpenCombine"
    case asyncStream = "AsyncStream"
    /// Hand-written closures calling each other: what the work costs with no library at all.
    case closures = "closures"
    /// The standard library's own way of doing the work (`CollectionDifference` for the diffing workloads).
    case standardLibrary = "CollectionDifference"
}

/// A pipeline built and subscribed outside the measurement, ready to run.
///
/// `run(count)` pushes `count` elements (or performs `count` subscriptions) and returns a checksum, so
/// that the optimizer cannot drop the work; running with 0 costs only the fixed overhead, which lets
/// an instruction count be divided per element.
public enum Prepared {
    case sync(run: (Int) -> Int, tearDown: () -> Void)
    case async(run: (Int) async -> Int)
}

/// One measured case: a scenario in one flavour.
public struct Workload: Sendable {
    /// The scenario, the same for every flavour, e.g. `Pumping/subject → 1 subscriber`.
    public let scenario: String
    public let flavour: Flavour
    /// How many elements (pumping) or subscriptions (creating) one iteration performs.
    public let count: Int
    public let prepare: @Sendable () -> Prepared
    /// Whether `prepare` returns `.async` (AsyncStream workloads are always asynchronous).
    public var isAsync = false
    /// Whether the workload must run on the main thread (a Driver, the main actor), as the instruction
    /// counter runs it; package-benchmark runs its benchmarks on another thread.
    public var needsTheMainThread = false

    public var name: String { "\(scenario) [\(flavour.rawValue)]" }
}

/// Elements pushed per iteration in the pumping scenarios.
public let elementsPerIteration = 10_000

/// Subscriptions made per iteration in the creating scenarios.
public let subscriptionsPerIteration = 1_000

/// Every workload, in the order they are reported.
public let allWorkloads: [Workload] =
    pumpingWorkloads + creatingWorkloads + traitWorkloads + scalingWorkloads + diffingWorkloads

/// Accumulates what a subscriber received.
///
/// A class rather than a captured `var`, so every flavour's subscriber writes through the same kind of
/// reference.
final class Total {
    var value = 0
}
