import BlueZSim
import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// How operations fail against the simulation: refused reads, failed connections, lost links, the
/// radio going off, and a device that goes away while its services are being discovered.
final class SimulationErrorTests: SimulationTestCase {
    private let monitor = StandardDevices.Address.heartRateMonitor

    private func monitorPeripheral(_ manager: CentralManager) throws -> Peripheral {
        try scanForPeripheral(named: "HRM Sim", services: [CBUUID(string: "180D")], of: manager)
    }

    func testReadOfANonReadableCharacteristicFailsWithReadNotPermitted() throws {
        try startSimulation()
        let peripheral = try monitorPeripheral(try poweredOnManager())
        _ = try connect(peripheral)
        let controlPoint = try characteristic("2A39", in: "180D", of: peripheral)
        XCTAssertEqual(controlPoint.properties, .write)
        XCTAssertThrowsError(try value(of: controlPoint.readValue())) { error in
            guard case .characteristicReadFailed(let failed, let reason)? = error as? BluetoothError else {
                return XCTFail("expected characteristicReadFailed, got \(error)")
            }
            XCTAssertEqual(failed, controlPoint)
            XCTAssertEqual((reason as? CBATTError)?.code, .readNotPermitted)
        }
    }

    /// The controller gives the attempt up: BlueZ's `le-connection-abort-by-local`.
    func testFailedConnectFailsWithPeripheralConnectionFailed() throws {
        try startSimulation()
        let peripheral = try monitorPeripheral(try poweredOnManager())
        simulation.failNextConnect(address: monitor)
        let connection = Recording(peripheral.establishConnection(), disposedBy: bag)
        let error = try connection.error()
        guard case .peripheralConnectionFailed(let failed, let reason)? = error as? BluetoothError else {
            return XCTFail("expected peripheralConnectionFailed, got \(String(describing: error))")
        }
        XCTAssertEqual(failed, peripheral)
        XCTAssertEqual((reason as? CBError)?.code, .operationCancelled)
        XCTAssertEqual(peripheral.state, .disconnected)
        XCTAssertFalse(try simulatedDevice(monitor).isConnected)
    }

    /// The link supervision timeout: the connection and an operation waiting on it both fail.
    func testLinkLossFailsTheConnectionAndNotificationsWithPeripheralDisconnected() throws {
        try startSimulation()
        let peripheral = try monitorPeripheral(try poweredOnManager())
        let connection = try connect(peripheral)
        let measurement = try characteristic("2A37", in: "180D", of: peripheral)
        let notifications = Recording(measurement.observeValueUpdateAndSetNotification(), disposedBy: bag)
        _ = try notifications.first()
        simulation.dropLink(address: monitor)

        for error in [try connection.error(), try notifications.error()] {
            guard case .peripheralDisconnected(let lost, let reason)? = error as? BluetoothError else {
                return XCTFail("expected peripheralDisconnected, got \(String(describing: error))")
            }
            XCTAssertEqual(lost, peripheral)
            XCTAssertEqual((reason as? CBError)?.code, .peripheralDisconnected)
        }
    }

    func testRadioOffMidScanFailsTheScanWithPoweredOff() throws {
        try startSimulation()
        let manager = try poweredOnManager()
        let scan = Recording(manager.scanForPeripherals(withServices: nil), disposedBy: bag)
        _ = try scan.first()
        simulation.setPowered(false)
        XCTAssertEqual(try scan.error() as? BluetoothError, .bluetoothPoweredOff)
        // The scan ends (is disposed) right after its error is delivered, on the manager's scheduler.
        try drain(centralScheduler)
        XCTAssertFalse(manager.isScanInProgress)
        XCTAssertEqual(manager.state, .poweredOff)
        XCTAssertEqual(simulation.snapshot.discoveryClients, [])
    }

    func testRadioOffMidNotificationFailsNotificationsAndConnectionWithPoweredOff() throws {
        try startSimulation()
        let peripheral = try monitorPeripheral(try poweredOnManager())
        let connection = try connect(peripheral)
        let measurement = try characteristic("2A37", in: "180D", of: peripheral)
        let notifications = Recording(
            measurement.observeValueUpdateAndSetNotification().map { $0.value }, disposedBy: bag)
        XCTAssertEqual(try notifications.first(), Data([0x06, StandardDevices.heartRate(1)]))
        simulation.setPowered(false)
        XCTAssertEqual(try notifications.error() as? BluetoothError, .bluetoothPoweredOff)
        XCTAssertEqual(try connection.error() as? BluetoothError, .bluetoothPoweredOff)
    }

    /// The device goes out of range after the link is up but before BlueZ has resolved its services
    /// (made to take ten seconds here): discovery fails as the link goes.
    func testDeviceVanishingDuringServiceDiscoveryFailsItWithPeripheralDisconnected() throws {
        try startSimulation(
            BlueZSimulation.Configuration(
                devices: [StandardDevices.heartRateMonitor], serviceResolveDelay: .seconds(10)))
        let peripheral = try monitorPeripheral(try poweredOnManager())
        _ = try connect(peripheral)
        let discovery = Recording(peripheral.discoverServices(nil).asObservable(), disposedBy: bag)
        simulation.vanish(address: monitor)

        let error = try discovery.error()
        guard case .peripheralDisconnected(let lost, let reason)? = error as? BluetoothError else {
            return XCTFail("expected peripheralDisconnected, got \(String(describing: error))")
        }
        XCTAssertEqual(lost, peripheral)
        XCTAssertEqual((reason as? CBError)?.code, .peripheralDisconnected)
        XCTAssertFalse(try simulatedDevice(monitor).isOnBus)
    }

    /// BlueZ forgets a device that leaves during a scan (InterfacesRemoved): the manager no longer
    /// retrieves it, and connecting to it fails.
    func testDeviceVanishingDuringAScanIsForgottenAndCannotBeConnected() throws {
        try startSimulation()
        let manager = try poweredOnManager()
        let scan = Recording(
            manager.scanForPeripherals(withServices: [CBUUID(string: "180D")])
                .filter { $0.advertisementData.localName == "HRM Sim" }, disposedBy: bag)
        let peripheral = try scan.first().peripheral
        XCTAssertEqual(manager.retrievePeripherals(withIdentifiers: [peripheral.identifier]), [peripheral])
        let removed = Recording(
            observer.signals(
                matching: DBusMatchRule(
                    sender: BlueZ.busName, path: .root, interface: DBusStandard.objectManager,
                    member: "InterfacesRemoved")
            ).filter { $0.body.first?.objectPath == BlueZ.devicePath(self.monitor) }, disposedBy: bag)
        try roundTrip(observer)
        simulation.vanish(address: monitor)
        _ = try removed.first()
        // The bus sent the signal to the central too; a round trip on its connection comes after it,
        // and the manager has taken it in once its scheduler has run what it was given.
        try roundTrip(centralConnection)
        try drain(centralScheduler)

        XCTAssertEqual(manager.retrievePeripherals(withIdentifiers: [peripheral.identifier]), [])
        let connection = Recording(peripheral.establishConnection(), disposedBy: bag)
        guard case .peripheralConnectionFailed(let failed, _)? = try connection.error() as? BluetoothError else {
            return XCTFail("expected peripheralConnectionFailed")
        }
        XCTAssertEqual(failed, peripheral)
    }
}
