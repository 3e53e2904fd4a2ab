import BlueZSim
import CoreBluetooth
import RxBluetoothKit
import RxSwift
import RxTest
import XCTest

final class ScanningTests: XCTestCase {
    func testScanReportsEachDeviceOnceWithItsAdvertisementAndStopsOnDispose() throws {
        let bluez = SimulatedBlueZ()
        let scan = bluez.record(
            {
                bluez.manager.scanForPeripherals(withServices: nil).map { $0.advertisementData.localName ?? "?" }
            }, at: 100, until: 5_000)
        bluez.advance(to: 4_900)
        let names = scan.events.compactMap(\.value.element)
        XCTAssertEqual(
            Set(names), ["HRM Sim", "Thermo Sim", "Lamp Sim", "Tag Sim", "Phone Sim", "Flaky Sim", "Stream Sim"])
        // Without allowDuplicates, a device whose advertised data stays the same is reported once; the
        // thermometer's service data and the tag's manufacturer data change, and are reported again.
        for steady in ["HRM Sim", "Lamp Sim", "Flaky Sim", "Stream Sim"] {
            XCTAssertEqual(names.filter { $0 == steady }.count, 1, "\(steady) in \(names)")
        }
        XCTAssertGreaterThan(names.filter { $0 == "Thermo Sim" }.count, 1, "\(names)")
        XCTAssertTrue(bluez.manager.isScanInProgress)
        XCTAssertEqual(bluez.simulation.snapshot.discoveryClients, [bluez.client.uniqueName])
        bluez.advance(to: 5_100)
        XCTAssertFalse(bluez.manager.isScanInProgress)
        XCTAssertEqual(bluez.simulation.snapshot.discoveryClients, [])
    }

    func testScanWithServicesReportsOnlyThoseAdvertisingThem() throws {
        let bluez = SimulatedBlueZ()
        let scan = bluez.record(
            {
                bluez.manager.scanForPeripherals(withServices: [CBUUID(string: "180D")]).map {
                    $0.peripheral.peripheral.address
                }
            }, at: 10, until: 4_000)
        bluez.advance(to: 4_000)
        XCTAssertEqual(Set(scan.events.compactMap(\.value.element)), [Sim.heartRateMonitor, Sim.flaky])
    }

    func testAllowDuplicatesReportsEachAdvertisement() throws {
        let bluez = SimulatedBlueZ()
        let scan = bluez.record(
            {
                bluez.manager.scanForPeripherals(
                    withServices: [CBUUID(string: "180D")],
                    options: [CBCentralManagerScanOptionAllowDuplicatesKey: true]
                ).filter { $0.peripheral.peripheral.address == Sim.heartRateMonitor }.map { $0.rssi.intValue }
            }, at: 10, until: 10_000)
        bluez.advance(to: 10_000)
        XCTAssertGreaterThan(scan.events.count, 3, "\(scan.events)")
    }

    func testASecondScanFailsWithScanInProgressAndTheFirstGoesOn() throws {
        let bluez = SimulatedBlueZ()
        let first = bluez.record({ bluez.manager.scanForPeripherals(withServices: nil) }, at: 10, until: 5_000)
        let second = bluez.record({ bluez.manager.scanForPeripherals(withServices: nil) }, at: 1_000)
        let third = bluez.record({ bluez.manager.scanForPeripherals(withServices: nil) }, at: 6_000, until: 9_000)
        bluez.advance(to: 9_000)
        XCTAssertEqual(second.events.count, 1)
        XCTAssertEqual(second.events.first?.time, 1_000)
        XCTAssertEqual(second.events.first?.bluetoothError, .scanInProgress)
        XCTAssertFalse(first.events.contains { $0.value.isStopEvent })
        XCTAssertTrue(first.events.contains { $0.time > 1_000 && $0.value.element != nil })
        XCTAssertFalse(third.events.isEmpty)
        XCTAssertFalse(third.events.contains { $0.value.isStopEvent })
    }

    func testRadioOffMidScanFailsTheScanAtThatMoment() throws {
        let bluez = SimulatedBlueZ()
        let scan = bluez.record({ bluez.manager.scanForPeripherals(withServices: nil) }, at: 10)
        bluez.at(2_500) { bluez.simulation.setPowered(false) }
        bluez.advance(to: 4_000)
        XCTAssertEqual(scan.events.last?.time, 2_500)
        XCTAssertEqual(scan.events.last?.bluetoothError, .bluetoothPoweredOff)
        XCTAssertFalse(bluez.manager.isScanInProgress)
        // A scan while the radio is off fails at once.
        let again = bluez.record({ bluez.manager.scanForPeripherals(withServices: nil) }, at: 5_000)
        bluez.advance(to: 5_001)
        XCTAssertEqual(again.events.map(\.time), [5_000])
        XCTAssertEqual(again.events.first?.bluetoothError, .bluetoothPoweredOff)
    }

    func testIdentifiersAreStableAndRetrievable() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        XCTAssertEqual(peripheral.identifier, bluez.identifier(of: Sim.heartRateMonitor))
        XCTAssertTrue(bluez.manager.retrievePeripherals(withIdentifiers: [peripheral.identifier]).first === peripheral)
        XCTAssertEqual(bluez.manager.retrievePeripherals(withIdentifiers: [UUID()]).count, 0)
    }
}
