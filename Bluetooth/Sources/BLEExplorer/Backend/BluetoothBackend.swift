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
    /// What must live as long as the manager: the private bus, the simulation and its run.
    private let resources: [Any]

    init(manager: CentralManager, radio: RadioSwitch?, name: String, resources: [Any] = []) {
        self.manager = manager
        self.radio = radio
        self.name = name
        self.resources = resources
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
            resources: [bus, simulationConnection, managerConnection, simulation, run])
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
