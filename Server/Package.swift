// swift-tools-version: 6.2
import PackageDescription

// swift-rx on the server: bridges to SwiftNIO, AsyncHTTPClient and Hummingbird, the ourplanet-server
// example and its load test. A package of its own so that the library keeps no dependencies.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "swift-rx-server",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RxNIO", targets: ["RxNIO"]),
        .library(name: "RxAsyncHTTPClient", targets: ["RxAsyncHTTPClient"]),
        .library(name: "RxHummingbird", targets: ["RxHummingbird"]),
    ],
    dependencies: [
        .package(name: "swift-rx", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .target(
            name: "RxNIO",
            dependencies: [
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .target(
            name: "RxAsyncHTTPClient",
            dependencies: [
                "RxNIO", .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxCocoa", package: "swift-rx"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .target(
            name: "RxHummingbird",
            dependencies: [
                "RxNIO", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict),
        // A Hummingbird application on a free loopback port, started and stopped from async code.
        .target(
            name: "LoopbackHTTP", dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: strict),
        // The offline EONET v3 that ourplanet-server polls by default: events that open and close in steps.
        .target(
            name: "EONETFixture",
            dependencies: ["LoopbackHTTP", .product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: strict),
        // glibc's count of the live heap (`mallinfo2`), for `GET /stats` and the tests.
        .target(name: "CHeapStats"),
        // ourplanet-server's routes and its shared, polled upstream per category, as a library for the tests.
        .target(
            name: "OurPlanetServer",
            dependencies: [
                "RxNIO", "RxAsyncHTTPClient", "RxHummingbird", "CHeapStats",
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxCocoa", package: "swift-rx"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict),
        // `swift run --package-path Server ourplanet-server`
        .executableTarget(
            name: "ourplanet-server",
            dependencies: [
                "OurPlanetServer", "EONETFixture", "LoopbackHTTP", "RxNIO", "RxHummingbird",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/OurPlanetServerApp",
            swiftSettings: strict),
        // The load test: N stream clients on loopback against a running ourplanet-server.
        .executableTarget(
            name: "ourplanet-load",
            dependencies: [
                "LoopbackHTTP", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/LoadTest",
            swiftSettings: strict),
        .testTarget(
            name: "RxNIOTests",
            dependencies: [
                "RxNIO", .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "RxAsyncHTTPClientTests",
            dependencies: [
                "RxAsyncHTTPClient", "LoopbackHTTP", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "RxHummingbirdTests",
            dependencies: [
                "RxHummingbird", "LoopbackHTTP", "OurPlanetServer", "EONETFixture",
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
