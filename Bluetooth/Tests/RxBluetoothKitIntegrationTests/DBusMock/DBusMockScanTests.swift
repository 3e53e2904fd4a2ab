import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// Scanning against python-dbusmock: the discovery calls BlueZ receives and the devices reported.
final class DBusMockScanTests: DBusMockTestCase {
    func testScanReportsADeviceAddedDuringTheScanAndStopsDiscoveryOnDispose() throws {
        try mock.addAdapter()
        let manager = makeManager()
        XCTAssertEqual(try knownState(of: manager), .poweredOn)
        let started = try mock.recordCalls(of: "StartDiscovery", at: adapterPath, disposedBy: bag)
        let stopped = try mock.recordCalls(of: "StopDiscovery", at: adapterPath, disposedBy: bag)
        let scan = Recording(manager.scanForPeripherals(withServices: nil), disposedBy: bag)
        _ = try started.first()
        XCTAssertTrue(manager.isScanInProgress)
        try mock.addDevice(address: deviceAddress, alias: "Mock HRM")

        let report = try scan.first()
        XCTAssertEqual(report.peripheral.name, "Mock HRM")
        XCTAssertEqual(report.advertisementData.localName, "Mock HRM")
        XCTAssertEqual(report.rssi, NSNumber(value: -79))
        XCTAssertEqual(report.peripheral.state, .disconnected)
        XCTAssertEqual(
            manager.retrievePeripherals(withIdentifiers: [report.peripheral.identifier]), [report.peripheral])

        scan.dispose()
        _ = try stopped.first()
        XCTAssertFalse(manager.isScanInProgress)
        XCTAssertEqual(try mock.callNames(at: adapterPath), ["SetDiscoveryFilter", "StartDiscovery", "StopDiscovery"])
        let filter = try XCTUnwrap(try mock.calls(of: "SetDiscoveryFilter", at: adapterPath).first?.first?.stringKeyed)
        XCTAssertEqual(
            filter.mapValues(\.unwrapped),
            ["Transport": .string("le"), "UUIDs": .strings([]), "DuplicateData": .bool(false)])
    }

    func testScanForServicesReportsOnlyDevicesThatOfferOne() throws {
        try mock.addAdapter()
        let manager = makeManager()
        XCTAssertEqual(try knownState(of: manager), .poweredOn)
        let started = try mock.recordCalls(of: "StartDiscovery", at: adapterPath, disposedBy: bag)
        let scan = Recording(
            manager.scanForPeripherals(withServices: [CBUUID(string: "180D")]), disposedBy: bag)
        _ = try started.first()
        // The template's devices advertise no UUIDs: the first is never reported; the second is once
        // its UUIDs name the service.
        try mock.addDevice(address: "C4:7C:8D:00:00:09", alias: "Other")
        try mock.addDevice(address: deviceAddress, alias: "Mock HRM")
        try mock.updateProperties(
            devicePath, "org.bluez.Device1", ["UUIDs": .strings([MockGattDatabase.heartRateService])])

        let report = try scan.first()
        XCTAssertEqual(report.peripheral.name, "Mock HRM")
        XCTAssertEqual(report.advertisementData.serviceUUIDs, [CBUUID(string: "180D")])
        let filter = try XCTUnwrap(try mock.calls(of: "SetDiscoveryFilter", at: adapterPath).first?.first?.stringKeyed)
        XCTAssertEqual(filter["UUIDs"]?.unwrapped, .strings([MockGattDatabase.heartRateService]))
    }

    func testSecondScanFailsWithScanInProgressAndTheFirstGoesOn() throws {
        try mock.addAdapter()
        let manager = makeManager()
        XCTAssertEqual(try knownState(of: manager), .poweredOn)
        let started = try mock.recordCalls(of: "StartDiscovery", at: adapterPath, disposedBy: bag)
        let first = Recording(manager.scanForPeripherals(withServices: nil), disposedBy: bag)
        _ = try started.first()

        let second = Recording(manager.scanForPeripherals(withServices: nil), disposedBy: bag)
        XCTAssertEqual(try second.error() as? BluetoothError, .scanInProgress)
        try mock.addDevice(address: deviceAddress, alias: "Mock HRM")
        XCTAssertEqual(try first.first().peripheral.name, "Mock HRM")
        XCTAssertEqual(try mock.calls(of: "StartDiscovery", at: adapterPath).count, 1)

        // Once the first scan has ended, a new one starts.
        first.dispose()
        XCTAssertFalse(manager.isScanInProgress)
        let third = Recording(manager.scanForPeripherals(withServices: nil), disposedBy: bag)
        XCTAssertEqual(try started.elements(2).count, 2)
        third.dispose()
    }

    func testScanFailsWhenTheRadioGoesOff() throws {
        try mock.addAdapter()
        let manager = makeManager()
        XCTAssertEqual(try knownState(of: manager), .poweredOn)
        let started = try mock.recordCalls(of: "StartDiscovery", at: adapterPath, disposedBy: bag)
        let scan = Recording(manager.scanForPeripherals(withServices: nil), disposedBy: bag)
        _ = try started.first()
        try mock.updateProperties(adapterPath, "org.bluez.Adapter1", ["Powered": .bool(false)])
        XCTAssertEqual(try scan.error() as? BluetoothError, .bluetoothPoweredOff)
        // The scan ends (is disposed) right after its error is delivered, on the manager's scheduler.
        try drain(centralScheduler)
        XCTAssertFalse(manager.isScanInProgress)
    }
}
