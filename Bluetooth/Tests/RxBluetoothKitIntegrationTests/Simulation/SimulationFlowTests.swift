import BlueZSim
import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// A whole session with the simulation's heart-rate monitor, one step after the other: scan, connect,
/// discover, read, notifications, and the end of it all on dispose.
final class SimulationFlowTests: SimulationTestCase {
    private let address = StandardDevices.Address.heartRateMonitor

    func testScanConnectDiscoverReadNotifyAndDisconnectOnDispose() throws {
        try startSimulation()
        let manager = try poweredOnManager()

        // Scan: the monitor advertises Heart Rate and Battery, its name, and its transmit power.
        let report = try XCTUnwrap(
            try manager.scanForPeripherals(withServices: [CBUUID(string: "180D")])
                .filter { $0.advertisementData.localName == "HRM Sim" }
                .take(1).toBlocking(timeout: 5).first())
        let peripheral = report.peripheral
        XCTAssertEqual(report.advertisementData.serviceUUIDs, [CBUUID(string: "180D"), CBUUID(string: "180F")])
        XCTAssertEqual(report.advertisementData.txPowerLevel, 4)
        XCTAssertEqual(peripheral.name, "HRM Sim")
        XCTAssertFalse(manager.isScanInProgress)

        // Connect.
        let disconnections = try recordDisconnections(of: address)
        let connection = try connect(peripheral)
        XCTAssertEqual(peripheral.state, .connected)
        XCTAssertTrue(try simulatedDevice(address).isConnected)

        // Discover: the services BlueZ resolved, in handle order.
        let services = try value(of: peripheral.discoverServices(nil))
        XCTAssertEqual(services.map(\.uuid), ["1800", "1801", "180D", "180A", "180F"].map { CBUUID(string: $0) })
        let heartRate = services[2]
        let characteristics = try value(of: heartRate.discoverCharacteristics(nil))
        XCTAssertEqual(characteristics.map(\.uuid), ["2A37", "2A38", "2A39"].map { CBUUID(string: $0) })
        XCTAssertEqual(characteristics.map(\.properties), [.notify, .read, .write])
        let measurement = characteristics[0]
        XCTAssertEqual(try value(of: measurement.discoverDescriptors()).map(\.uuid), [CBUUID(string: "2902")])

        // Read the body sensor location: chest.
        XCTAssertEqual(try value(of: characteristics[1].readValue()).value, Data([0x01]))

        // Notifications, in the order the monitor sends them: the first three of the connection.
        let notifications = Recording(
            measurement.observeValueUpdateAndSetNotification().map { $0.value }, disposedBy: bag)
        let expected = (1...3).map { Data([0x06, StandardDevices.heartRate($0)]) }
        XCTAssertEqual(try notifications.elements(3, timeout: 5), expected)
        XCTAssertTrue(measurement.isNotifying)
        let measurementPath = try XCTUnwrap(simulation.characteristicPath(address: address, uuid: "2A37"))
        XCTAssertEqual(try simulatedDevice(address).notifyClients[measurementPath], [centralConnection.uniqueName])

        // Dispose: notifications end, and the connection, with Disconnect (reason Local).
        notifications.dispose()
        connection.dispose()
        XCTAssertEqual(
            try disconnections.first(),
            ["org.bluez.Reason.Local", "Connection terminated by local host"])
        let device = try simulatedDevice(address)
        XCTAssertFalse(device.isConnected)
        XCTAssertEqual(device.notifyClients, [:])
    }
}
