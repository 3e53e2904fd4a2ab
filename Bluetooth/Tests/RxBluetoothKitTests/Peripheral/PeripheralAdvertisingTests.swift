import CoreBluetooth
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest
import XCTest

final class PeripheralAdvertisingTests: XCTestCase {
    func testStateFollowsTheAdapter() {
        let h = PeripheralHarness()
        let states = h.record({ h.manager.observeStateWithInitialValue() })
        h.at(1_000) { h.bluez.setPowered(false) }
        h.at(2_000) { h.bluez.setPowered(true) }
        h.advance(to: 3_000)
        XCTAssertEqual(
            states.events,
            [.next(0, .unknown), .next(0, .poweredOn), .next(1_000, .poweredOff), .next(2_000, .poweredOn)])
        XCTAssertEqual(h.manager.manager.state, .poweredOn)
    }

    func testAdvertisesWhileSubscribedWithTheAdvertisementData() throws {
        let h = PeripheralHarness()
        let data: [String: Any] = [
            CBAdvertisementDataLocalNameKey: "Pulse",
            CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "180D")],
            CBAdvertisementDataManufacturerDataKey: Data([0x4C, 0x00, 0x02, 0x15]),
            CBAdvertisementDataServiceDataKey: [CBUUID(string: "180F"): Data([0x64])],
        ]
        let advertising = h.record({ h.manager.startAdvertising(data) }, at: 100, until: 500)
        let second = h.record({ h.manager.startAdvertising(nil) }, at: 200)
        h.advance(to: 300)
        XCTAssertEqual(advertising.events.count, 1)
        XCTAssertEqual(advertising.events.first?.time, 100)
        guard case .started? = advertising.events.first?.value.element else {
            return XCTFail("not started: \(advertising.events)")
        }
        XCTAssertEqual(second.events.first?.bluetoothError, .advertisingInProgress)
        XCTAssertEqual(second.events.first?.time, 200)
        XCTAssertTrue(h.manager.isAdvertising)
        let (path, properties) = try XCTUnwrap(h.bluez.advertisements.first)
        XCTAssertEqual(h.bluez.calls, [.next(100, "RegisterAdvertisement \(path)")])
        XCTAssertEqual(properties["Type"]?.string, "peripheral")
        XCTAssertEqual(properties["LocalName"]?.string, "Pulse")
        XCTAssertEqual(properties["ServiceUUIDs"]?.strings, ["0000180d-0000-1000-8000-00805f9b34fb"])
        let manufacturer = try XCTUnwrap(properties["ManufacturerData"]?.dictionaryEntries?.first)
        XCTAssertEqual(manufacturer.key, .uint16(0x004C))
        XCTAssertEqual(manufacturer.value.bytes, [0x02, 0x15])
        let serviceData = try XCTUnwrap(properties["ServiceData"]?.stringKeyed)
        XCTAssertEqual(serviceData["0000180f-0000-1000-8000-00805f9b34fb"]?.bytes, [0x64])

        h.advance(to: 600)
        XCTAssertEqual(
            h.bluez.calls, [.next(100, "RegisterAdvertisement \(path)"), .next(500, "UnregisterAdvertisement \(path)")])
        XCTAssertTrue(h.bluez.advertisements.isEmpty)
        XCTAssertFalse(h.manager.isAdvertising)
        XCTAssertFalse(h.exportsAnything())
        // BlueZ's tree (two rules) and BlueZ's name: advertising added none for good.
        XCTAssertEqual(h.bus.matchRuleCount(of: h.client.uniqueName), 3)

        // Once it is over, another may start.
        let again = h.record({ h.manager.startAdvertising(nil) }, at: 700, until: 800)
        h.advance(to: 900)
        XCTAssertEqual(again.events.count, 1)
        XCTAssertTrue(h.bluez.advertisements.isEmpty)
    }

    func testARefusedAdvertisementFailsAndLeavesNothing() {
        let h = PeripheralHarness()
        h.bluez.refuse(advertisements: true)
        let advertising = h.record({ h.manager.startAdvertising(nil) }, at: 100)
        h.advance(to: 200)
        XCTAssertEqual(advertising.events.first?.bluetoothError, .advertisingStartFailed(DBusError(name: "")))
        XCTAssertEqual(advertising.events.first?.time, 100)
        XCTAssertFalse(h.exportsAnything())
        XCTAssertEqual(h.bluez.calls.count, 1)
    }

    func testReleasedByBlueZEndsTheAdvertising() throws {
        let h = PeripheralHarness()
        let advertising = h.record({ h.manager.startAdvertising(nil) }, at: 100)
        h.advance(to: 150)
        let path = try XCTUnwrap(h.bluez.advertisements.keys.first)
        _ = h.call(at: 200) { h.bluez.releaseAdvertisement(path, of: h.client.uniqueName) }
        h.advance(to: 300)
        XCTAssertEqual(advertising.events.count, 2)
        XCTAssertEqual(advertising.events.last?.bluetoothError, .advertisingStartFailed(DBusError(name: "")))
        XCTAssertEqual(advertising.events.last?.time, 200)
        XCTAssertFalse(h.exportsAnything())
    }

    func testPoweredOffFailsAdvertising() {
        let h = PeripheralHarness()
        let advertising = h.record({ h.manager.startAdvertising(nil) }, at: 100)
        h.at(200) { h.bluez.setPowered(false) }
        h.advance(to: 300)
        XCTAssertEqual(advertising.events.last?.bluetoothError, .bluetoothPoweredOff)
        XCTAssertEqual(advertising.events.last?.time, 200)
        XCTAssertEqual(h.bluez.calls.last?.value.element?.hasPrefix("UnregisterAdvertisement"), true)
        XCTAssertFalse(h.exportsAnything())
    }

    func testL2CAPChannelsCannotBePublished() {
        let h = PeripheralHarness()
        let published = h.record({ h.manager.publishL2CAPChannel(withEncryption: false) }, at: 100)
        h.advance(to: 200)
        XCTAssertEqual(published.events.first?.bluetoothError, .publishingL2CAPChannelFailed(0, nil))
    }
}
