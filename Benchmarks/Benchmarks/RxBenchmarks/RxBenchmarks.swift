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
/// `Tools/thresholds.sh update`) before `Tools/thresholds.sh check` fails. Mallocs per iteration are
/// exact in every synchronous workload, so 1 % (one malloc more in a workload that allocates none
/// fails). Wall clock moves by 2× between runs on a shared 2-core machine, so it fails only above
/// four times the threshold: it catches a change of complexity, and the instruction counts
/// (`Tools/check-instructions.sh`, 3 %) catch the rest. Instructions, where the kernel offers perf
/// counters to read them, 3 %.
private var tolerances: [BenchmarkMetric: BenchmarkThresholds] {
    [
        .wallClock: .init(relative: [.p90: 300]),
        .mallocCountTotal: .init(relative: [.p90: 1]),
        .instructions: .init(relative: [.p90: 3]),
    ]
}

private func register(_ workload: Workload) {
    let name = "\(workload.scenario) (\(workload.flavour.rawValue))"
    if workload.flavour == .asyncStream || workload.isAsync {
        Benchmark(name) { benchmark async in
            guard case .async(let run) = workload.prepare() else {
                fatalError("\(name) is not asynchronous")
            }
            // Building the stream and starting the consumer task is set-up, not measured.
            benchmark.startMeasurement()
            blackHole(await run(workload.count))
            benchmark.stopMeasurement()
        }
    } else {
        Benchmark(name) { benchmark in
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
