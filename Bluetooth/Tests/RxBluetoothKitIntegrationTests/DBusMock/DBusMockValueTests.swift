import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// Reads, writes and notifications against python-dbusmock's objects, checked on both sides: what
/// RxBluetoothKit returns and what the mock was called with.
final class DBusMockValueTests: DBusMockTestCase {
    private var manager: CentralManager!
    private var peripheral: Peripheral!
    private var database: MockGattDatabase!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try mock.addAdapter()
        manager = makeManager()
        (peripheral, database, _) = try resolvedPeripheral(manager)
    }

    override func tearDownWithError() throws {
        manager = nil
        peripheral = nil
        try super.tearDownWithError()
    }

    func testReadGivesTheValueAndCallsReadValueWithNoOptions() throws {
        let location = try characteristic(
            MockGattDatabase.bodySensorLocation, in: MockGattDatabase.heartRateService, of: peripheral)
        let read = try value(of: location.readValue())
        XCTAssertEqual(read, location)
        XCTAssertEqual(read.value, Data([0x01]))
        XCTAssertEqual(
            try mock.calls(of: "ReadValue", at: database.bodySensorLocationPath),
            [[.dictionary(keySignature: "s", valueSignature: "v", [])]])
    }

    func testReadRefusedByThePeripheralFailsWithReadNotPermitted() throws {
        let measurement = try characteristic(
            MockGattDatabase.measurement, in: MockGattDatabase.heartRateService, of: peripheral)
        XCTAssertThrowsError(try value(of: measurement.readValue())) { error in
            guard case .characteristicReadFailed(let failed, let reason)? = error as? BluetoothError else {
                return XCTFail("expected characteristicReadFailed, got \(error)")
            }
            XCTAssertEqual(failed, measurement)
            XCTAssertEqual((reason as? CBATTError)?.code, .readNotPermitted)
        }
    }

    func testReadOfADescriptor() throws {
        let measurement = try characteristic(
            MockGattDatabase.measurement, in: MockGattDatabase.heartRateService, of: peripheral)
        let descriptor = try XCTUnwrap(try value(of: measurement.discoverDescriptors()).first)
        XCTAssertEqual(try value(of: descriptor.readValue()).value as? Data, Data([0, 0]))
        XCTAssertEqual(try mock.calls(of: "ReadValue", at: database.clientConfigurationPath).count, 1)
    }

    func testWriteWithResponseSendsARequestAndReadsBack() throws {
        let setting = try characteristic(MockGattDatabase.setting, in: MockGattDatabase.settingsService, of: peripheral)
        let writes = Recording(setting.observeWrite(), disposedBy: bag)
        XCTAssertEqual(try value(of: setting.writeValue(Data([0x2A, 0x07]), type: .withResponse)), setting)
        XCTAssertEqual(try writes.first(), setting)
        XCTAssertEqual(
            try mock.calls(of: "WriteValue", at: database.settingPath),
            [[.bytes([0x2A, 0x07]), .vardict(["type": .string("request")])]])
        XCTAssertEqual(try value(of: setting.readValue()).value, Data([0x2A, 0x07]))
    }

    func testWriteWithoutResponseSendsACommandAndReadsBack() throws {
        let setting = try characteristic(MockGattDatabase.setting, in: MockGattDatabase.settingsService, of: peripheral)
        XCTAssertEqual(try value(of: setting.writeValue(Data([0x05]), type: .withoutResponse)), setting)
        XCTAssertEqual(
            try mock.calls(of: "WriteValue", at: database.settingPath),
            [[.bytes([0x05]), .vardict(["type": .string("command")])]])
        XCTAssertEqual(try value(of: setting.readValue()).value, Data([0x05]))
    }

    func testNotificationsFollowValueChangesInOrderUntilDisposed() throws {
        let measurement = try characteristic(
            MockGattDatabase.measurement, in: MockGattDatabase.heartRateService, of: peripheral)
        let path = database.measurementPath
        let started = try mock.recordCalls(of: "StartNotify", at: path, disposedBy: bag)
        let stopped = try mock.recordCalls(of: "StopNotify", at: path, disposedBy: bag)
        let notifications = Recording(
            measurement.observeValueUpdateAndSetNotification().map { $0.value }, disposedBy: bag)
        _ = try started.first()
        for beat: UInt8 in [61, 62, 64] {
            try mock.updateProperties(path, "org.bluez.GattCharacteristic1", ["Value": .bytes([0x06, beat])])
        }
        XCTAssertEqual(try notifications.elements(3), [Data([0x06, 61]), Data([0x06, 62]), Data([0x06, 64])])
        XCTAssertTrue(measurement.isNotifying)

        notifications.dispose()
        _ = try stopped.first()
        XCTAssertEqual(try mock.calls(of: "StartNotify", at: path).count, 1)
        let notifying = try mock.call(
            path, DBusStandard.properties, "Get", [.string("org.bluez.GattCharacteristic1"), .string("Notifying")])
        XCTAssertEqual(notifying.first?.unwrapped, .bool(false))
    }

    func testTwoObserversShareOneNotificationSession() throws {
        let measurement = try characteristic(
            MockGattDatabase.measurement, in: MockGattDatabase.heartRateService, of: peripheral)
        let path = database.measurementPath
        let started = try mock.recordCalls(of: "StartNotify", at: path, disposedBy: bag)
        let stopped = try mock.recordCalls(of: "StopNotify", at: path, disposedBy: bag)
        let first = Recording(measurement.observeValueUpdateAndSetNotification().map { $0.value }, disposedBy: bag)
        let second = Recording(measurement.observeValueUpdateAndSetNotification().map { $0.value }, disposedBy: bag)
        _ = try started.first()
        try mock.updateProperties(path, "org.bluez.GattCharacteristic1", ["Value": .bytes([0x06, 70])])
        XCTAssertEqual(try first.first(), Data([0x06, 70]))
        XCTAssertEqual(try second.first(), Data([0x06, 70]))

        first.dispose()
        try mock.updateProperties(path, "org.bluez.GattCharacteristic1", ["Value": .bytes([0x06, 71])])
        XCTAssertEqual(try second.elements(2).last, Data([0x06, 71]))
        second.dispose()
        _ = try stopped.first()
        XCTAssertEqual(try mock.calls(of: "StartNotify", at: path).count, 1)
        XCTAssertEqual(try mock.calls(of: "StopNotify", at: path).count, 1)
    }

}
