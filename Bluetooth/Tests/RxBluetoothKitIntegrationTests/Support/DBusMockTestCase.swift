import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// A test against python-dbusmock's `bluez5` template on the test's private bus (skipped when
/// python-dbusmock is not installed). The template starts with no adapter.
class DBusMockTestCase: IntegrationTestCase {
    private(set) var mock: MockBlueZ!
    let adapterPath: DBusObjectPath = "/org/bluez/hci0"
    let deviceAddress = "C4:7C:8D:00:00:01"
    var devicePath: DBusObjectPath { adapterPath.appending("dev_C4_7C_8D_00_00_01") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let mock = try MockBlueZ(address: bus.address)
        self.mock = mock
        addCleanup { mock.stop() }
    }

    /// The mock's log when a test fails, to see what it was asked.
    override func tearDownWithError() throws {
        if let failures = testRun?.failureCount, failures > 0, let mock { print("dbusmock's log:\n\(mock.log)") }
        try super.tearDownWithError()
    }

    /// The peripheral at ``deviceAddress``, found as an application finds it: a scan (for all
    /// services, once the radio is on) during which the mock adds the device; the scan ends when the
    /// device is reported.
    func scanForDevice(_ manager: CentralManager, alias: String = "Mock HRM") throws -> Peripheral {
        XCTAssertEqual(try knownState(of: manager), .poweredOn)
        let started = try mock.recordCalls(of: "StartDiscovery", at: adapterPath, disposedBy: bag)
        let scan = Recording(manager.scanForPeripherals(withServices: nil).take(1), disposedBy: bag)
        _ = try started.first()
        try mock.addDevice(address: deviceAddress, alias: alias)
        return try scan.first().peripheral
    }

    /// A connected peripheral whose services BlueZ has resolved: ``scanForDevice(_:alias:)``,
    /// ``connect(_:)``, then the GATT objects.
    func resolvedPeripheral(_ manager: CentralManager) throws -> (Peripheral, MockGattDatabase, Recording<Peripheral>) {
        let peripheral = try scanForDevice(manager)
        let connection = try connect(peripheral)
        let database = MockGattDatabase(device: devicePath)
        try database.install(on: mock)
        return (peripheral, database, connection)
    }
}
