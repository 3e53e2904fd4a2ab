import Benchmark
import RxBenchmarkScenarios

// The workloads live in `Scenarios/` (Pumping/, Creating/) so that `RxInstructionCount` runs the very
// same code under callgrind; this file only hands them to package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // `instructions` reads the CPU's perf counters; where the kernel offers none it stays empty and
        // `Tools/count-instructions.sh` counts them with callgrind instead.
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 2_000,
        thresholds: tolerances
    )
    // The main-thread workloads (the Driver scenarios, the main actor) would stop at their main-thread
    // check here: package-benchmark runs benchmarks on another thread. The instruction counter runs them.
    for workload in allWorkloads where !workload.needsTheMainThread {
        register(workload)
    }
}

/// How far a run's p90 may stray from the checked-in thresholds (`Thresholds/`, written by
/// `Tools/thresholds.sh update`) before `Tools/thresholds.sh check` fails.
///
/// - Mallocs: 16 per iteration either way. An iteration is 10 000 elements or 1 000 subscriptions, so
///   one malloc more per element or subscription fails, while the few that the harness and the
///   runtime's threads make now and then (a p90 of 16 read 18 in a run) do not.
/// - Wall clock: ten times the threshold. A p90 on a 2-core machine shared with other builds moved by
///   up to five times between runs; a change of complexity (O(N) where it was O(1) at N = 100 000)
///   moves it by far more, and the instruction counts (`Tools/check-instructions.sh`, 3 %) catch the
///   rest.
/// - Instructions, where the kernel offers perf counters to read them: 3 %.
private var tolerances: [BenchmarkMetric: BenchmarkThresholds] {
    [
        .wallClock: .init(relative: [.p90: 900]),
        .mallocCountTotal: .init(absolute: [.p90: 16]),
        .instructions: .init(relative: [.p90: 3]),
    ]
}

/// The asynchronous workloads allocate per element or await (a task's continuation, a stream's
/// storage), and how many depends on scheduling: 2 % of what they allocate.
private var asyncTolerances: [BenchmarkMetric: BenchmarkThresholds] {
    var result = tolerances
    result[.mallocCountTotal] = .init(relative: [.p90: 2])
    return result
}

/// The diffing workloads' mallocs per iteration vary between runs (one read 7 % more than its
/// threshold): 10 %.
private var diffingTolerances: [BenchmarkMetric: BenchmarkThresholds] {
    var result = tolerances
    result[.mallocCountTotal] = .init(relative: [.p90: 10])
    return result
}

private func register(_ workload: Workload) {
    let name = "\(workload.scenario) (\(workload.flavour.rawValue))"
    var configuration = Benchmark.defaultConfiguration
    if workload.scenario.hasPrefix("Diffing/") { configuration.thresholds = diffingTolerances }
    if workload.flavour == .asyncStream || workload.isAsync {
        configuration.thresholds = asyncTolerances
        Benchmark(name, configuration: configuration) { benchmark async in
            guard case .async(let run) = workload.prepare() else {
                fatalError("\(name) is not asynchronous")
            }
            // Building the stream and starting the consumer task is set-up, not measured.
            benchmark.startMeasurement()
            blackHole(await run(workload.count))
            benchmark.stopMeasurement()
        }
    } else {
        Benchmark(name, configuration: configuration) { benchmark in
            guard case .sync(let run, let tearDown) = workload.prepare() else {
                fatalError("\(name) is not synchronous")
            }
            // Building and subscribing the pipeline is set-up, not measured (except in the creating
            // scenarios, where `run` itself subscribes).
            benchmark.startMeasurement()
            blackHole(run(workload.count))
            benchmark.stopMeasurement()
            tearDown()
        }
    }
}
