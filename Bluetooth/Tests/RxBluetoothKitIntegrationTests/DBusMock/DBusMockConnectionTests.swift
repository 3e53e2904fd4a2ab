import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// Connections against python-dbusmock: Connect while subscribed, Disconnect on dispose, a lost link,
/// and discovery once BlueZ has resolved the services.
final class DBusMockConnectionTests: DBusMockTestCase {
    func testConnectionCallsConnectAndDisposingItCallsDisconnect() throws {
        try mock.addAdapter()
        let manager = makeManager()
        let peripheral = try scanForDevice(manager)
        let disconnections = Recording(manager.observeDisconnect(for: peripheral), disposedBy: bag)
        let disconnectCalls = try mock.recordCalls(of: "Disconnect", at: devicePath, disposedBy: bag)

        let connection = try connect(peripheral)
        XCTAssertTrue(peripheral.isConnected)
        XCTAssertEqual(peripheral.state, .connected)
        XCTAssertEqual(try mock.calls(of: "Connect", at: devicePath).count, 1)

        connection.dispose()
        XCTAssertEqual(try disconnectCalls.first(), [])
        let (disconnected, reason) = try disconnections.first()
        XCTAssertEqual(disconnected, peripheral)
        XCTAssertNil(reason, "a connection closed on purpose has no reason")
        XCTAssertEqual(peripheral.state, .disconnected)
        XCTAssertEqual(try mock.callNames(at: devicePath), ["Connect", "Disconnect"])
    }

    func testSecondConnectionOfTheSamePeripheralFails() throws {
        try mock.addAdapter()
        let manager = makeManager()
        let peripheral = try scanForDevice(manager)
        _ = try connect(peripheral)
        let second = Recording(manager.establishConnection(peripheral), disposedBy: bag)
        XCTAssertEqual(try second.error() as? BluetoothError, .peripheralIsAlreadyObservingConnection(peripheral))
        XCTAssertEqual(try mock.calls(of: "Connect", at: devicePath).count, 1)
    }

    /// The template's DisconnectDevice: the link goes down without the program asking.
    func testLostLinkFailsTheConnectionWithPeripheralDisconnected() throws {
        try mock.addAdapter()
        let manager = makeManager()
        let peripheral = try scanForDevice(manager)
        let connection = try connect(peripheral)
        try mock.call(
            .root, MockBlueZ.templateInterface, "DisconnectDevice", [.string("hci0"), .string(deviceAddress)])

        let error = try connection.error()
        guard case .peripheralDisconnected(let lost, let reason)? = error as? BluetoothError else {
            return XCTFail("expected peripheralDisconnected, got \(String(describing: error))")
        }
        XCTAssertEqual(lost, peripheral)
        XCTAssertEqual((reason as? CBError)?.code, .peripheralDisconnected)
        XCTAssertEqual(peripheral.state, .disconnected)
        XCTAssertEqual(try mock.calls(of: "Disconnect", at: devicePath).count, 0)
    }

    func testDiscoveryWaitsForServicesResolvedThenFindsServicesCharacteristicsAndDescriptors() throws {
        try mock.addAdapter()
        let manager = makeManager()
        let peripheral = try scanForDevice(manager)
        _ = try connect(peripheral)
        let services = Recording(peripheral.discoverServices(nil).asObservable(), disposedBy: bag)
        try MockGattDatabase(device: devicePath).install(on: mock)

        let found = try services.first()
        XCTAssertEqual(found.map(\.uuid), [CBUUID(string: "180D"), CBUUID(string: "FFF0")])
        XCTAssertEqual(found.map(\.isPrimary), [true, true])
        XCTAssertEqual(peripheral.services?.map(\.uuid), [CBUUID(string: "180D"), CBUUID(string: "FFF0")])

        let heartRate = try value(of: found[0].discoverCharacteristics(nil))
        XCTAssertEqual(heartRate.map(\.uuid), [CBUUID(string: "2A37"), CBUUID(string: "2A38")])
        XCTAssertEqual(heartRate.map(\.properties), [.notify, .read])
        XCTAssertEqual(heartRate.map(\.isNotifying), [false, false])
        XCTAssertEqual(heartRate[1].value, Data([0x01]))

        let settings = try value(of: found[1].discoverCharacteristics([CBUUID(string: "FFF1")]))
        XCTAssertEqual(settings.map(\.properties), [[.read, .write, .writeWithoutResponse]])

        let descriptors = try value(of: heartRate[0].discoverDescriptors())
        XCTAssertEqual(descriptors.map(\.uuid), [CBUUID(string: "2902")])
        XCTAssertEqual(descriptors.first?.value as? Data, Data([0, 0]))
        XCTAssertEqual(try value(of: heartRate[1].discoverDescriptors()).count, 0)
    }

    func testDiscoveryOfOneServiceByUUID() throws {
        try mock.addAdapter()
        let manager = makeManager()
        let (peripheral, _, _) = try resolvedPeripheral(manager)
        let services = try value(of: peripheral.discoverServices([CBUUID(string: "FFF0")]))
        XCTAssertEqual(services.map(\.uuid), [CBUUID(string: "FFF0")])
        let characteristics = try value(of: services[0].discoverCharacteristics(nil))
        XCTAssertEqual(characteristics.map(\.uuid), [CBUUID(string: "FFF1")])
    }
}
