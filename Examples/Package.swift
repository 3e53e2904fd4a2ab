// swift-tools-version: 6.2
import PackageDescription

// The example programs: the printed tour, the terminal UI kit and its gallery, and the RxSwift
// book's three applications (weather, EONET, GIF search). They depend on swift-rx by path.
let package = Package(
    name: "swift-rx-examples",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TerminalUI", targets: ["TerminalUI"]), .library(name: "InspectorUI", targets: ["InspectorUI"]),
        // The tests' helpers (TmuxSession above all), for the Bluetooth package's end-to-end tests too.
        .library(name: "ExampleTestSupport", targets: ["ExampleTestSupport"]),
    ],
    dependencies: [
        .package(name: "swift-rx", path: ".."),
        // The HTTP server the root package's URLSession+Rx tests use; here it is Wundercast's offline
        // OpenWeatherMap.
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        .executableTarget(
            name: "rx-demo",
            dependencies: [
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxRelay", package: "swift-rx"),
            ],
            path: "Sources/RxDemo",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Every TerminalUI control on one screen, for trying the kit.
        .executableTarget(
            name: "terminal-gallery",
            dependencies: [
                "TerminalUI", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"), .product(name: "RxDataSources", package: "swift-rx"),
            ],
            path: "Sources/TerminalGallery",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Wundercast, the weather app of the RxSwift book's RxCocoa chapters:
        // `swift run --package-path Examples wundercast`.
        .executableTarget(
            name: "wundercast",
            dependencies: [
                "AppSupport", "Wundercast", "WundercastFixtures", "TerminalUI",
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"),
            ],
            path: "Sources/WundercastApp",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // Wundercast's ApiController and view controller, as a library so the tests can drive them. It
        // knows nothing of its offline server (WundercastFixtures).
        .target(
            name: "Wundercast",
            dependencies: [
                "AppSupport", "TerminalUI", .product(name: "RxInspect", package: "swift-rx"),
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The offline OpenWeatherMap: a FlyingFox server on loopback answering from its recorded cities and
        // its gazetteer of a few hundred more (data, read once from the bundle).
        .target(
            name: "WundercastFixtures", dependencies: ["FixtureHTTP"], resources: [.copy("gazetteer.tsv")],
            swiftSettings: [.treatAllWarnings(as: .error)]),
        // OurPlanet, the NASA EONET browser of the book's "Combining Operators in Practice":
        // `swift run --package-path Examples ourplanet`.
        .executableTarget(
            name: "ourplanet",
            dependencies: [
                "AppSupport", "OurPlanet", "OurPlanetFixtures", "TerminalUI",
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"),
            ],
            path: "Sources/OurPlanetApp",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // OurPlanet's EONET service and view controllers, as a library so the tests can drive them. It
        // knows nothing of its offline server (OurPlanetFixtures).
        .target(
            name: "OurPlanet",
            dependencies: [
                "AppSupport", "TerminalUI", .product(name: "RxInspect", package: "swift-rx"),
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxRelay", package: "swift-rx"), .product(name: "RxCocoa", package: "swift-rx"),
                .product(name: "RxDataSources", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The offline EONET: a FlyingFox server on loopback answering from its event data.
        .target(
            name: "OurPlanetFixtures", dependencies: ["FixtureHTTP"], swiftSettings: [.treatAllWarnings(as: .error)]),
        // iGif, the GIF search of the book's "Creating Custom Reactive Extensions":
        // `swift run --package-path Examples igif`.
        .executableTarget(
            name: "igif",
            dependencies: [
                "AppSupport", "IGif", "IGifFixtures", "TerminalUI",
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"),
            ],
            path: "Sources/IGifApp",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // iGif's URLSession.rx extension, GIF decoder and view controller, as a library so the tests can
        // drive them. It knows nothing of its offline server (IGifFixtures).
        .target(
            name: "IGif",
            dependencies: [
                "AppSupport", "TerminalUI", .product(name: "RxInspect", package: "swift-rx"),
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"), .product(name: "RxDataSources", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The offline Giphy: a FlyingFox server on loopback answering searches and serving GIFs it draws.
        .target(name: "IGifFixtures", dependencies: ["FixtureHTTP"], swiftSettings: [.treatAllWarnings(as: .error)]),
        // What the three applications share: their start-up (the service, real or offline, the root view
        // controller with the inspector, the status line), the report-and-continue operator, the
        // classification of a service's failures.
        .target(
            name: "AppSupport",
            dependencies: [
                "InspectorUI", "TerminalUI", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxRelay", package: "swift-rx"), .product(name: "RxCocoa", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // What the applications' tests against their fixture servers share: waiting on this thread for an
        // observable's answer or for something a server's thread does; and a program under tmux
        // (TmuxSession), which the Bluetooth package's explorer tests use as well (the product above).
        .target(
            name: "ExampleTestSupport",
            dependencies: ["TerminalUI", .product(name: "RxSwift", package: "swift-rx")],
            path: "Tests/ExampleTestSupport",
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "IGifTests",
            dependencies: [
                "ExampleTestSupport", "IGif", "IGifFixtures", "TerminalUI",
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
                .product(name: "RxBlocking", package: "swift-rx"), .product(name: "RxDataSources", package: "swift-rx"),
            ],
            resources: [.copy("FuzzCorpus")],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The offline services' shared part: a FlyingFox server on a free loopback port, started and stopped
        // from synchronous code, bodies that arrive slowly and count how their answers ended, a stable
        // hash. Each application's FixtureServer adds its routes and data.
        .target(
            name: "FixtureHTTP",
            dependencies: [.product(name: "FlyingFox", package: "FlyingFox")],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The "UIKit" the example applications run on: terminal, renderer, input, controls.
        .target(
            name: "TerminalUI",
            dependencies: [
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxRelay", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"), .product(name: "Differentiator", package: "swift-rx"),
                .product(name: "RxDataSources", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The inspector's view (live marble lanes of the tagged streams) and the F2 overlay every app
        // installs; apart from TerminalUI so the kit does not depend on RxInspect.
        .target(
            name: "InspectorUI",
            dependencies: [
                "TerminalUI", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxInspect", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "InspectorUITests",
            dependencies: [
                "InspectorUI", "TerminalUI", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxInspect", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "ExampleTestSupport", "TerminalUI", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
                .product(name: "RxDataSources", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "WundercastTests",
            dependencies: [
                "ExampleTestSupport", "Wundercast", "WundercastFixtures", "TerminalUI",
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxCocoa", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        .testTarget(
            name: "OurPlanetTests",
            dependencies: [
                "ExampleTestSupport", "OurPlanet", "OurPlanetFixtures", "TerminalUI",
                .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxRelay", package: "swift-rx"), .product(name: "RxCocoa", package: "swift-rx"),
                .product(name: "RxTest", package: "swift-rx"), .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "RxDataSources", package: "swift-rx"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
