import Benchmark
import RxBenchmarkScenarios

// The workloads live in `Scenarios/` (Pumping/, Creating/) so that `RxInstructionCount` runs the very
// same code under callgrind; this file only hands them to package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        // `instructions` reads the CPU's perf counters; where the kernel offers none it stays empty and
        // `Tools/count-instructions.sh` counts them with callgrind instead.
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )
    for workload in allWorkloads {
        register(workload)
    }
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
