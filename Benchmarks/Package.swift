// swift-tools-version: 6.2
import PackageDescription

// A package of its own so that swift-rx keeps an empty dependency graph: only whoever runs the
// benchmarks fetches package-benchmark and OpenCombine.
let package = Package(
    name: "swift-rx-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so that the product reference below does not depend on the checkout's folder name.
        .package(name: "swift-rx", path: ".."),
        // MallocInterposer counts mallocs without jemalloc; the trait list also leaves out the
        // RuntimeInterposer trait, whose package is not needed for wall clock, instructions and mallocs.
        .package(
            url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // RxDBus, RxBluetoothKit and the simulated BlueZ, for the cost of a Bluetooth notification.
        .package(name: "swift-rx-bluetooth", path: "../Bluetooth"),
    ],
    targets: [
        // The workloads, shared by the benchmark suite and the instruction counter so both measure the
        // same code.
        .target(
            name: "RxBenchmarkScenarios",
            dependencies: [
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"),
                .product(name: "RxTest", package: "swift-rx"),
                .product(name: "RxInspect", package: "swift-rx"),
                .product(name: "Differentiator", package: "swift-rx"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Scenarios",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // package-benchmark runs the executable targets whose folder sits in `Benchmarks/`.
        .executableTarget(
            name: "RxBenchmarks",
            dependencies: [
                "RxBenchmarkScenarios",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/RxBenchmarks",
            swiftSettings: [.treatAllWarnings(as: .error)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Runs one workload once, for `valgrind --tool=callgrind` where perf counters are unavailable.
        .executableTarget(
            name: "RxInstructionCount",
            dependencies: ["RxBenchmarkScenarios"],
            path: "Tools/RxInstructionCount",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The receiving side's instructions per Bluetooth notification (BlueZ's PropertiesChanged): plain
        // sd-bus, RxDBus and RxBluetoothKit, each receiver in a process of its own and its sender in
        // another, for `valgrind --tool=callgrind` (Tools/count-notification-cost.sh).
        .executableTarget(
            name: "RxNotificationCost",
            dependencies: [
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "CSystemdBus", package: "swift-rx-bluetooth"),
                .product(name: "RxDBus", package: "swift-rx-bluetooth"),
                .product(name: "RxBluetoothKit", package: "swift-rx-bluetooth"),
                .product(name: "CoreBluetooth", package: "swift-rx-bluetooth"),
                .product(name: "BlueZSim", package: "swift-rx-bluetooth"),
            ],
            path: "Tools/RxNotificationCost",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Sturdiness checks in a release build (released subscriptions, deep chains, `toBlocking`); CI
        // runs it.
        .executableTarget(
            name: "RxReleaseChecks",
            dependencies: [
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxBlocking", package: "swift-rx"),
            ],
            path: "Tools/RxReleaseChecks",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Prints the stack bytes per operator of long map/filter chains, subscribing and per element.
        .executableTarget(
            name: "RxStackDepth",
            dependencies: [.product(name: "RxSwift", package: "swift-rx")],
            path: "Tools/RxStackDepth",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
