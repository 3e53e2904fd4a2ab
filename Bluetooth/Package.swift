// swift-tools-version: 6.2
import PackageDescription

// swift-rx and Bluetooth LE on Linux: D-Bus as observables (RxDBus, on sd-bus from libsystemd),
// RxBluetoothKit's central role over BlueZ's D-Bus API, CoreBluetooth's value types for Linux, a
// simulated BlueZ (bluez-sim) and a terminal BLE explorer. A package of its own so that the library
// keeps no dependencies: only this package needs libsystemd (Debian's libsystemd-dev). Linux only:
// BlueZ and sd-bus are Linux's, and on Apple's platforms the module CoreBluetooth is Apple's own.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "swift-rx-bluetooth",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RxDBus", targets: ["RxDBus"]),
        .library(name: "CoreBluetooth", targets: ["CoreBluetooth"]),
        .library(name: "RxBluetoothKit", targets: ["RxBluetoothKit"]),
        .library(name: "BlueZSim", targets: ["BlueZSim"]),
        // sd-bus's headers, for code that measures RxDBus beside plain sd-bus (Benchmarks/).
        .library(name: "CSystemdBus", targets: ["CSystemdBus"]),
        .executable(name: "bluez-sim", targets: ["bluez-sim"]),
        .executable(name: "ble-explorer", targets: ["ble-explorer"]),
        .executable(name: "ble-peripheral", targets: ["ble-peripheral"]),
    ],
    dependencies: [
        .package(name: "swift-rx", path: ".."),
        .package(name: "swift-rx-examples", path: "../Examples"),
    ],
    targets: [
        // sd-bus, libsystemd's D-Bus client and server library.
        .systemLibrary(
            name: "CSystemdBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(
            name: "RxDBus",
            dependencies: ["CSystemdBus", .product(name: "RxSwift", package: "swift-rx")],
            swiftSettings: strict),
        // CoreBluetooth's value types (CBUUID, the property and state enums, the advertisement keys) for
        // platforms that have no CoreBluetooth.
        .target(name: "CoreBluetooth", swiftSettings: strict),
        .target(
            name: "RxBluetoothKit",
            dependencies: ["RxDBus", "CoreBluetooth", .product(name: "RxSwift", package: "swift-rx")],
            swiftSettings: strict),
        // BlueZ's D-Bus API simulated: an adapter and a set of devices with GATT, and faults on demand.
        .target(
            name: "BlueZSim",
            dependencies: ["RxDBus", "CoreBluetooth", .product(name: "RxSwift", package: "swift-rx")],
            swiftSettings: strict),
        // `swift run --package-path Bluetooth bluez-sim`: a private bus with the simulated BlueZ on it.
        .executableTarget(
            name: "bluez-sim", dependencies: ["BlueZSim", "RxDBus", .product(name: "RxSwift", package: "swift-rx")],
            path: "Sources/BlueZSimApp", swiftSettings: strict),
        // The explorer's screens, as a library so the tests can drive them.
        .target(
            name: "BLEExplorer",
            dependencies: [
                "RxBluetoothKit", "CoreBluetooth", "BlueZSim", "RxDBus",
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxCocoa", package: "swift-rx"),
                .product(name: "RxDataSources", package: "swift-rx"),
                .product(name: "TerminalUI", package: "swift-rx-examples"),
            ],
            swiftSettings: strict),
        // `swift run --package-path Bluetooth ble-explorer`
        .executableTarget(
            name: "ble-explorer", dependencies: ["BLEExplorer"], path: "Sources/BLEExplorerApp",
            swiftSettings: strict),
        // `ble-peripheral --bus ADDRESS`: a headless PeripheralManager program (a counter that notifies).
        .executableTarget(
            name: "ble-peripheral",
            dependencies: [
                "RxBluetoothKit", "CoreBluetooth", "RxDBus", .product(name: "RxSwift", package: "swift-rx"),
            ],
            path: "Sources/PeripheralDemo", swiftSettings: strict),
        .testTarget(
            name: "RxDBusTests",
            dependencies: [
                "RxDBus", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxTest", package: "swift-rx"), .product(name: "RxBlocking", package: "swift-rx"),
            ],
            swiftSettings: strict),
        .testTarget(name: "CoreBluetoothTests", dependencies: ["CoreBluetooth"], swiftSettings: strict),
        .testTarget(
            name: "RxBluetoothKitTests",
            dependencies: [
                "RxBluetoothKit", "CoreBluetooth", "BlueZSim", "RxDBus",
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
                .product(name: "RxBlocking", package: "swift-rx"),
            ],
            swiftSettings: strict),
        // The simulation in virtual time through a second LocalBus connection, and on a private
        // dbus-daemon against bluetoothctl and busctl.
        .testTarget(
            name: "BlueZSimTests",
            dependencies: [
                "BlueZSim", "RxDBus", .product(name: "RxSwift", package: "swift-rx"),
                .product(name: "RxTest", package: "swift-rx"), .product(name: "RxBlocking", package: "swift-rx"),
            ],
            swiftSettings: strict),
        // The central role on a private bus against two BlueZ implementations (python-dbusmock's bluez5
        // template, the simulation), and code shaped like RxBluetoothKit's README examples against the simulation.
        .testTarget(
            name: "RxBluetoothKitIntegrationTests",
            dependencies: [
                "RxBluetoothKit", "CoreBluetooth", "RxDBus", "BlueZSim",
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxTest", package: "swift-rx"),
                .product(name: "RxBlocking", package: "swift-rx"),
            ],
            swiftSettings: strict),
        // The explorer's view models in virtual time against the simulation, and `ble-explorer` under tmux.
        .testTarget(
            name: "BLEExplorerTests",
            dependencies: [
                "BLEExplorer", "BlueZSim", "RxDBus", "RxBluetoothKit", "CoreBluetooth",
                .product(name: "RxSwift", package: "swift-rx"), .product(name: "RxCocoa", package: "swift-rx"),
                .product(name: "RxTest", package: "swift-rx"), .product(name: "RxBlocking", package: "swift-rx"),
                .product(name: "TerminalUI", package: "swift-rx-examples"),
                .product(name: "ExampleTestSupport", package: "swift-rx-examples"),
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
