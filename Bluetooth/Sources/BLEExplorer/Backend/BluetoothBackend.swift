import BlueZSim
import Dispatch
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift

/// Where the explorer's Bluetooth comes from: a simulated BlueZ on a private bus of its own (the
/// default, so that it runs anywhere, offline), or the machine's BlueZ on the system bus
/// (`RX_BLUEZ=system`).
public final class BluetoothBackend {
    public let manager: CentralManager
    /// The simulated radio's switch; `nil` for the machine's BlueZ, whose radio is the system's.
    public let radio: RadioSwitch?
    /// How the screen names the backend: `simulated BlueZ`, `system BlueZ`.
    public let name: String
    /// The private bus's address (a simulated BlueZ, started here or joined), `nil` for the system bus.
    public let busAddress: String?
    /// What must live as long as the manager: the private bus, the simulation and its run.
    private let resources: [Any]

    init(manager: CentralManager, radio: RadioSwitch?, name: String, busAddress: String? = nil, resources: [Any] = []) {
        self.manager = manager
        self.radio = radio
        self.name = name
        self.busAddress = busAddress
        self.resources = resources
    }

    /// A peripheral manager on the same BlueZ, on a connection of its own (`--advertise`).
    public func makePeripheralManager() throws -> PeripheralManager {
        guard let busAddress else { return PeripheralManager(queue: .main) }
        return PeripheralManager(bus: try DBusConnection(address: busAddress), scheduler: MainScheduler.instance)
    }

    /// Where an explorer that started a simulated BlueZ leaves its bus's address for `--join`.
    public static var sharedBusFile: String {
        let directory = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? NSTemporaryDirectory()
        return (directory as NSString).appendingPathComponent("ble-explorer-\(getuid()).bus")
    }

    /// Leaves this backend's bus address in ``sharedBusFile`` until the program ends, so that another
    /// explorer started with `--join` finds the same simulated radio.
    public func shareBus() {
        guard let busAddress else { return }
        let file = Self.sharedBusFile
        try? busAddress.write(toFile: file, atomically: true, encoding: .utf8)
        ExitCleanup.add { try? FileManager.default.removeItem(atPath: file) }
    }

    /// The backend the command line and `RX_BLUEZ` ask for: `--bus ADDRESS` or `--join` (the address
    /// another explorer shared) join that bus's simulated BlueZ; otherwise ``fromEnvironment(_:)``.
    public static func from(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> BluetoothBackend
    {
        if let index = arguments.firstIndex(of: "--bus") {
            guard index + 1 < arguments.count else { throw BackendError(message: "--bus needs a bus address") }
            return try joined(address: arguments[index + 1])
        }
        if arguments.contains("--join") {
            guard let address = try? String(contentsOfFile: sharedBusFile, encoding: .utf8), !address.isEmpty else {
                throw BackendError(
                    message: "No explorer is advertising: start one with ble-explorer --advertise first "
                        + "(it leaves its bus's address in \(sharedBusFile)).")
            }
            return try joined(address: address.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return try fromEnvironment(environment)
    }

    /// The simulated BlueZ another program runs on the bus at `address` (an explorer with
    /// `--advertise`, or `bluez-sim`). The radio switch sets the adapter's `Powered`, as
    /// `bluetoothctl power off` would.
    public static func joined(address: String) throws -> BluetoothBackend {
        let connection = try DBusConnection(address: address)
        waitUntilOwned(BlueZ.busName, on: connection, timeout: 3)
        let manager = CentralManager(bus: connection, scheduler: MainScheduler.instance)
        let radio = RadioSwitch { on in
            connection.setProperty(
                "Powered", to: .bool(on), of: BlueZ.busName, path: BlueZ.adapterPath, interface: BlueZ.adapterInterface
            ).forgettingReply()
        }
        return BluetoothBackend(
            manager: manager, radio: radio, name: "shared simulated BlueZ", busAddress: address,
            resources: [connection])
    }

    /// The backend `RX_BLUEZ` asks for: unset, empty or `simulated` for the simulation, `system` for
    /// the machine's BlueZ.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> BluetoothBackend
    {
        switch environment["RX_BLUEZ"] ?? "" {
        case "", "sim", "simulated", "simulation": return try simulated()
        case "system": return system()
        case let other:
            throw BackendError(
                message: "RX_BLUEZ=\(other) is not a backend: leave it unset for the simulated BlueZ, or set "
                    + "RX_BLUEZ=system for this machine's")
        }
    }

    /// The machine's BlueZ, delivering on the main queue. If the system bus cannot be reached the
    /// manager's state is `unsupported`, which the screen says.
    public static func system() -> BluetoothBackend {
        BluetoothBackend(manager: CentralManager(queue: .main), radio: nil, name: "system BlueZ")
    }

    /// A private `dbus-daemon`, the simulated BlueZ on one connection to it (running on a serial queue
    /// of its own) and the manager on another, delivering on the main queue. The simulation leaves the
    /// bus and the daemon stops when the program exits, however it exits.
    public static func simulated(configuration: BlueZSimulation.Configuration = .standard) throws -> BluetoothBackend {
        let bus = try PrivateBus()
        ExitCleanup.add { bus.stop() }
        let simulationConnection = try DBusConnection(address: bus.address)
        let managerConnection = try DBusConnection(address: bus.address)
        let simulation = BlueZSimulation(
            configuration: configuration,
            scheduler: SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "bluez-sim"))
        let run = simulation.run(on: simulationConnection)
        ExitCleanup.add { run.dispose() }
        // The manager's first look at the bus should find BlueZ there, not report it missing for a moment.
        waitUntilOwned(BlueZ.busName, on: managerConnection, timeout: 3)
        let manager = CentralManager(bus: managerConnection, scheduler: MainScheduler.instance)
        return BluetoothBackend(
            manager: manager, radio: RadioSwitch(simulation.setPowered), name: "simulated BlueZ",
            busAddress: bus.address, resources: [bus, simulationConnection, managerConnection, simulation, run])
    }

    /// Waits (on this thread, at start-up) until `name` has an owner on the bus, or `timeout` seconds.
    private static func waitUntilOwned(_ name: String, on bus: DBusConnection, timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let answered = DispatchSemaphore(value: 0)
            let owned = Locked(false)
            let call = bus.call(
                destination: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
                member: "NameHasOwner", arguments: [.string(name)]
            ).subscribe { result in
                if case .success(let body) = result { owned.set(body.first?.bool == true) }
                answered.signal()
            }
            _ = answered.wait(timeout: .now() + 1)
            call.dispose()
            if owned.get() { return }
            usleep(20_000)
        }
    }
}

/// Why the backend could not be set up.
public struct BackendError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The simulated radio's power switch.
public struct RadioSwitch: Sendable {
    private let set: @Sendable (Bool) -> Void

    public init(_ set: @escaping @Sendable (Bool) -> Void) { self.set = set }

    public func setPowered(_ on: Bool) { set(on) }
}
