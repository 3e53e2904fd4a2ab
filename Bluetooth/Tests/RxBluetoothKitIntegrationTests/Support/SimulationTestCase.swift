import BlueZSim
import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// A test against the simulated BlueZ on the test's private bus, through real sd-bus connections:
/// one for the simulation (its scheduler a serial dispatch queue), one for the central, and one of
/// the test's own to watch what BlueZ emits.
class SimulationTestCase: IntegrationTestCase {
    private(set) var simulation: BlueZSimulation!
    /// The test's own connection, for watching BlueZ's signals.
    private(set) var observer: DBusConnection!

    /// Puts the simulation on the bus and waits until it owns `org.bluez` (it asks for the name once
    /// its objects are in place).
    func startSimulation(_ configuration: BlueZSimulation.Configuration = .standard) throws {
        let connection = try DBusConnection(address: bus.address)
        let observer = try DBusConnection(address: bus.address)
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "bluez-sim")
        let simulation = BlueZSimulation(configuration: configuration, scheduler: scheduler)
        let owned = Recording(
            observer.signals(
                matching: DBusMatchRule(
                    sender: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
                    member: "NameOwnerChanged", arg0: BlueZ.busName)
            ).filter { $0.body.count == 3 && $0.body[2].string == connection.uniqueName })
        defer { owned.dispose() }
        try roundTrip(observer)
        let run = simulation.run(on: connection)
        addCleanup {
            run.dispose()
            connection.close()
            observer.close()
        }
        self.simulation = simulation
        self.observer = observer
        _ = try owned.first()
    }

    /// A manager whose radio is on.
    func poweredOnManager() throws -> CentralManager {
        let manager = makeManager()
        _ = try manager.observeStateWithInitialValue().filter { $0 == .poweredOn }.toBlocking(timeout: 5).first()
        return manager
    }

    /// The first peripheral a scan for `services` reports under `name`; the scan ends with it.
    func scanForPeripheral(named name: String, services: [CBUUID]?, of manager: CentralManager) throws -> Peripheral {
        let scan = manager.scanForPeripherals(withServices: services)
            .filter { $0.advertisementData.localName == name }
            .take(1)
        return try XCTUnwrap(try scan.toBlocking(timeout: 5).first()).peripheral
    }

    /// The path of a standard device.
    func devicePath(_ address: String) -> DBusObjectPath { BlueZ.devicePath(address) }

    /// Device1's `Disconnected(reason, message)` signals of the device at `address` from now on.
    func recordDisconnections(of address: String) throws -> Recording<[String]> {
        let signals = observer.signals(
            matching: DBusMatchRule(
                sender: BlueZ.busName, path: devicePath(address), interface: BlueZ.deviceInterface,
                member: "Disconnected")
        ).map { $0.body.compactMap(\.string) }
        let recording = Recording(signals, disposedBy: bag)
        try roundTrip(observer)
        return recording
    }

    /// The simulated device at `address` as the simulation sees it now.
    func simulatedDevice(_ address: String) throws -> BlueZSimulation.DeviceSnapshot {
        try XCTUnwrap(simulation.snapshot.device(address))
    }
}
