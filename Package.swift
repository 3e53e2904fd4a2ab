// swift-tools-version: 6.2
import PackageDescription

// Warnings are errors in the project's own targets; SwiftPM does not apply this to packages that
// depend on swift-rx, so users are never broken by a new compiler warning.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "swift-rx",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "RxSwift", targets: ["RxSwift"]),
        .library(name: "RxRelay", targets: ["RxRelay"]),
        .library(name: "RxTest", targets: ["RxTest"]),
        .library(name: "RxBlocking", targets: ["RxBlocking"]),
        .library(name: "RxCocoa", targets: ["RxCocoa"]),
        .library(name: "RxInspect", targets: ["RxInspect"]),
        // `inspect` on Driver and Signal: its own product so that RxInspect depends on RxSwift only.
        .library(name: "RxCocoaInspect", targets: ["RxCocoaInspect"]),
        // RxDataSources' diff and section models; the standard library only.
        .library(name: "Differentiator", targets: ["Differentiator"]),
        .library(name: "RxDataSources", targets: ["RxDataSources"]),
    ],
    // OperationQueueScheduler is the one part of RxSwift that needs full Foundation, which adds about
    // 44 MB (ICU's data) to a statically linked Linux binary: on by default for drop-in compatibility,
    // `traits: []` on the dependency leaves it out (see Performance.md).
    traits: [
        .trait(
            name: "OperationQueueScheduler",
            description: "RxSwift's OperationQueueScheduler, which links full Foundation into RxSwift."),
        .default(enabledTraits: ["OperationQueueScheduler"]),
    ],
    dependencies: [
        // Test-only: the RxCocoa networking tests run against a real HTTP server on 127.0.0.1. SwiftPM
        // resolves a dependency only for the targets that use it, so packages depending on swift-rx
        // never fetch it (checked with a throwaway client package; see the Networking article).
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1")
    ],
    targets: [
        .target(name: "RxSwift", swiftSettings: strict),
        .target(name: "RxRelay", dependencies: ["RxSwift"], swiftSettings: strict),
        .target(name: "RxTest", dependencies: ["RxSwift"], swiftSettings: strict),
        .target(name: "RxBlocking", dependencies: ["RxSwift"], swiftSettings: strict),
        .target(name: "RxCocoa", dependencies: ["RxSwift", "RxRelay"], swiftSettings: strict),
        .target(name: "RxInspect", dependencies: ["RxSwift"], swiftSettings: strict),
        .target(name: "RxCocoaInspect", dependencies: ["RxInspect", "RxCocoa", "RxSwift"], swiftSettings: strict),
        .target(name: "Differentiator", swiftSettings: strict),
        .target(
            name: "RxDataSources", dependencies: ["Differentiator", "RxSwift", "RxCocoa"], swiftSettings: strict),
        // Runs a test of the calling bundle in a child process (debug-build stops, fresh-process state).
        .target(name: "ChildProcessTesting", path: "Tests/ChildProcessTesting", swiftSettings: strict),
        .testTarget(
            name: "RxSwiftTests", dependencies: ["RxSwift", "RxTest", "RxBlocking", "ChildProcessTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "RxInspectTests", dependencies: ["RxInspect", "RxCocoaInspect", "RxCocoa", "RxTest", "RxSwift"],
            swiftSettings: strict),
        .testTarget(name: "DifferentiatorTests", dependencies: ["Differentiator"], swiftSettings: strict),
        .testTarget(
            name: "RxDataSourcesTests", dependencies: ["RxDataSources", "RxTest", "RxSwift", "RxCocoa"],
            swiftSettings: strict),
        .testTarget(name: "RxRelayTests", dependencies: ["RxRelay", "RxTest"], swiftSettings: strict),
        .testTarget(
            name: "RxTestTests", dependencies: ["RxSwift", "RxTest", "RxBlocking", "ChildProcessTesting"],
            swiftSettings: strict),
        .testTarget(name: "RxBlockingTests", dependencies: ["RxSwift", "RxBlocking", "RxTest"], swiftSettings: strict),
        .testTarget(
            name: "RxCocoaTests",
            dependencies: [
                "RxCocoa", "RxTest", "RxBlocking", "ChildProcessTesting",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "Swift6ConcurrencyTests", dependencies: ["RxSwift", "RxRelay", "RxTest"], swiftSettings: strict),
        // Code written for RxSwift in the Swift 5 language mode (as RxSwift's own suite and the community
        // libraries are) compiles with no warning: Swift 5-mode conformances and closures.
        .testTarget(
            name: "RxSwiftSwift5ModeTests", dependencies: ["RxSwift", "RxCocoa", "RxTest", "ChildProcessTesting"],
            swiftSettings: strict + [.swiftLanguageMode(.v5)]),
        // Swift 6.2's "approachable concurrency" settings: main-actor controls, `.rx` extensions, a delegate
        // proxy and the RxSwift book's weather view controller with no isolation annotation compile
        // with no warning.
        .testTarget(
            name: "ApproachableConcurrencyTests", dependencies: ["RxCocoa", "RxTest"],
            swiftSettings: strict + [
                .defaultIsolation(MainActor.self), .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]),
        // Code written with the names of RxSwift 4–5 must compile with deprecation warnings only: every
        // other warning is an error here too (Swift 6.2 diagnostic groups; later flags win).
        .testTarget(
            name: "RxSwiftDeprecatedSpellingsTests", dependencies: ["RxSwift", "RxRelay", "RxCocoa", "RxTest"],
            swiftSettings: strict + [.treatWarning("DeprecatedDeclaration", as: .warning)]),
    ],
    swiftLanguageModes: [.v6]
)
