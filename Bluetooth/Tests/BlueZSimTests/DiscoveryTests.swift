import BlueZSim
import RxDBus
import XCTest

final class DiscoveryTests: XCTestCase {
    typealias Address = StandardDevices.Address

    func testDevicesAppearAfterDiscoveryStartsWithBlueZsPropertiesAndTypes() throws {
        let harness = Harness()
        let start = harness.startDiscovery(at: 1000)
        harness.advance(to: 1099)
        XCTAssertEqual(start.time, 1000)
        XCTAssertNotNil(start.value)
        XCTAssertEqual(harness.values(of: "Discovering", BlueZ.adapterPath, BlueZ.adapterInterface).map(\.0), [1000])
        XCTAssertTrue(harness.interfacesAdded().isEmpty)

        harness.advance(to: 1100)
        let added = harness.interfacesAdded()
        XCTAssertEqual(added.map(\.time), Array(repeating: 1100, count: 7))
        XCTAssertEqual(
            Set(added.map(\.path)), Set(StandardDevices.all.map { BlueZ.devicePath($0.address) }))

        let hrm = try XCTUnwrap(added.first { $0.path == BlueZ.devicePath(Address.heartRateMonitor) })
        let device = try XCTUnwrap(hrm.interfaces[BlueZ.deviceInterface])
        XCTAssertEqual(hrm.path.rawValue, "/org/bluez/hci0/dev_C4_7C_8D_6A_10_01")
        XCTAssertEqual(device["Address"], .string(Address.heartRateMonitor))
        XCTAssertEqual(device["AddressType"], .string("random"))
        XCTAssertEqual(device["Name"], .string("HRM Sim"))
        XCTAssertEqual(device["Alias"], .string("HRM Sim"))
        XCTAssertEqual(device["Appearance"], .uint16(0x0341))
        XCTAssertEqual(device["RSSI"], .int16(StandardDevices.heartRateMonitor.rssi(atReport: 1)))
        XCTAssertEqual(device["TxPower"], .int16(4))
        XCTAssertEqual(
            device["UUIDs"],
            .strings(["0000180d-0000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000-00805f9b34fb"]))
        XCTAssertEqual(
            device["ManufacturerData"],
            .dictionary(
                keySignature: "q", valueSignature: "v",
                [DBusDictEntry(.uint16(0x0059), .variant(.bytes([0x02, 0x00])))]))
        for (name, value) in [
            "Connected": false, "Paired": false, "Bonded": false, "Trusted": false, "Blocked": false,
            "LegacyPairing": false, "ServicesResolved": false,
        ] {
            XCTAssertEqual(device[name], .bool(value), name)
        }
        XCTAssertEqual(device["Adapter"], .objectPath(BlueZ.adapterPath))
        XCTAssertEqual(device["AdvertisingFlags"], .bytes([0x06]))
        XCTAssertNil(device["Icon"], "BlueZ has no icon for heart-rate sensors")
        XCTAssertNil(device["Class"], "LE devices have no class of device")

        let thermometer = try XCTUnwrap(
            added.first { $0.path == BlueZ.devicePath(Address.thermometer) }?.interfaces[BlueZ.deviceInterface])
        XCTAssertEqual(thermometer["ServiceData"]?.signature, "a{sv}")
        XCTAssertEqual(
            thermometer["ServiceData"]?.dictionaryEntries?.first?.key, .string("00001809-0000-1000-8000-00805f9b34fb"))
        XCTAssertEqual(thermometer["ServiceData"]?.dictionaryEntries?.first?.value.unwrapped.signature, "ay")
        XCTAssertNil(thermometer["TxPower"])
        let phone = try XCTUnwrap(
            added.first { $0.path == BlueZ.devicePath(Address.renamingPhone) }?.interfaces[BlueZ.deviceInterface])
        XCTAssertEqual(phone["Icon"], .string("phone"))
    }

    func testRSSIMovesWithEveryAdvertisement() {
        let harness = Harness()
        harness.startDiscovery(at: 1000)
        harness.advance(to: 5100)
        let path = BlueZ.devicePath(Address.light)
        let rssi = harness.values(of: "RSSI", path, BlueZ.deviceInterface)
        XCTAssertEqual(rssi.map(\.0), [2100, 3100, 4100, 5100])
        XCTAssertEqual(rssi.map(\.1), (2...5).map { .int16(StandardDevices.light.rssi(atReport: $0)) })
        XCTAssertEqual(
            harness.property(path, BlueZ.deviceInterface, "RSSI"), .int16(StandardDevices.light.rssi(atReport: 5)))
        XCTAssertEqual(harness.simulation.snapshot.device(Address.light)?.rssi, StandardDevices.light.rssi(atReport: 5))
    }

    func testManufacturerAndServiceDataChangeBetweenAdvertisements() {
        let harness = Harness()
        harness.startDiscovery(at: 0)
        harness.advance(to: 10_100)
        let tag = harness.values(of: "ManufacturerData", BlueZ.devicePath(Address.batteryTag), BlueZ.deviceInterface)
        // Reports 3, 6, 9 change the last byte of the tag's data.
        XCTAssertEqual(tag.map(\.0), [2100, 5100, 8100])
        XCTAssertEqual(
            tag.last?.1.dictionaryEntries?.first?.value.unwrapped, .bytes([0x54, 0x41, 0x47, 3]))
        let thermometer = harness.values(
            of: "ServiceData", BlueZ.devicePath(Address.thermometer), BlueZ.deviceInterface)
        XCTAssertEqual(thermometer.map(\.0), [4100, 9100])
    }

    func testEachClientHasOneSessionAndDiscoveryLastsWhileAnyHasOne() {
        let harness = Harness()
        let other = harness.bus.connect()
        let first = harness.startDiscovery(at: 1000)
        let again = harness.startDiscovery(at: 1200)
        let second = harness.startDiscovery(at: 1300, from: other)
        let stopFirst = harness.stopDiscovery(at: 2000)
        let stopAgain = harness.stopDiscovery(at: 2500)
        harness.advance(to: 2999)
        XCTAssertNotNil(first.value)
        XCTAssertEqual(
            again.error, DBusError(name: BlueZErrorName.inProgress, message: "Operation already in progress"))
        XCTAssertNotNil(second.value)
        XCTAssertNotNil(stopFirst.value)
        XCTAssertEqual(stopAgain.error, DBusError(name: BlueZErrorName.failed, message: "No discovery started"))
        XCTAssertEqual(harness.simulation.snapshot.discoveryClients, [other.uniqueName])
        XCTAssertEqual(harness.values(of: "Discovering", BlueZ.adapterPath, BlueZ.adapterInterface).map(\.0), [1000])

        let stopOther = harness.stopDiscovery(at: 3000, from: other)
        harness.advance(to: 3000)
        XCTAssertNotNil(stopOther.value)
        XCTAssertEqual(
            harness.values(of: "Discovering", BlueZ.adapterPath, BlueZ.adapterInterface).map { $0.0 }, [1000, 3000])
        // The devices seen lose RSSI and TxPower.
        let hrm = harness.changes(BlueZ.devicePath(Address.heartRateMonitor), BlueZ.deviceInterface, since: 3000)
        XCTAssertEqual(hrm.map(\.invalidated), [["RSSI", "TxPower"]])
        XCTAssertNil(harness.property(BlueZ.devicePath(Address.heartRateMonitor), BlueZ.deviceInterface, "RSSI"))
    }

    func testAClientLeavingTheBusLosesItsSession() {
        let harness = Harness()
        let other = harness.bus.connect()
        harness.startDiscovery(at: 100, from: other)
        harness.advance(to: 1000)
        XCTAssertTrue(harness.simulation.snapshot.isDiscovering)
        other.close()
        harness.advance(by: 0)
        XCTAssertEqual(harness.simulation.snapshot.discoveryClients, [])
        XCTAssertEqual(
            harness.values(of: "Discovering", BlueZ.adapterPath, BlueZ.adapterInterface).map { $0.0 }, [100, 1000])
    }

    func testTemporaryDevicesGoThirtySecondsAfterTheirLastAdvertisement() {
        let harness = Harness()
        harness.startDiscovery(at: 0)
        harness.stopDiscovery(at: 2500)
        // Last reports at 2100; removal at 32 100.
        harness.advance(to: 32_099)
        XCTAssertTrue(harness.interfacesRemoved().isEmpty)
        harness.advance(to: 32_100)
        let removed = harness.interfacesRemoved()
        XCTAssertEqual(removed.count, 7)
        XCTAssertTrue(removed.allSatisfy { $0.time == 32_100 && $0.interfaces == [BlueZ.deviceInterface] })
        XCTAssertTrue(harness.simulation.snapshot.devices.allSatisfy { !$0.isOnBus })
    }

    func testAConnectedDeviceStaysAfterDiscoveryAndTheOthersGo() {
        let harness = Harness()
        harness.discoverAndConnect(Address.light, at: 0)
        harness.stopDiscovery(at: 1000)
        harness.advance(to: 60_000)
        let removed = Set(harness.interfacesRemoved().map(\.path))
        XCTAssertFalse(removed.contains(BlueZ.devicePath(Address.light)))
        XCTAssertEqual(removed.count, 6)
        // Once connected, a device is no longer temporary: it stays after the link goes.
        harness.deviceCall(at: 61_000, Address.light, "Disconnect")
        harness.advance(to: 120_000)
        XCTAssertEqual(harness.simulation.snapshot.device(Address.light)?.isOnBus, true)
    }

    func testAFilterOnServicesAdmitsOnlyDevicesAdvertisingThem() {
        let harness = Harness()
        let filter = harness.call(
            at: 500, BlueZ.adapterPath, BlueZ.adapterInterface, "SetDiscoveryFilter",
            [.vardict(["UUIDs": .strings(["180D"]), "Transport": .string("le")])])
        harness.startDiscovery(at: 1000)
        harness.advance(to: 3000)
        XCTAssertNotNil(filter.value)
        XCTAssertEqual(
            Set(harness.interfacesAdded().map(\.path)),
            [BlueZ.devicePath(Address.heartRateMonitor), BlueZ.devicePath(Address.flakySensor)])
    }

    func testPatternAndRSSIFilters() {
        let harness = Harness()
        harness.call(
            at: 0, BlueZ.adapterPath, BlueZ.adapterInterface, "SetDiscoveryFilter",
            [.vardict(["Pattern": .string("Lamp")])])
        let other = harness.bus.connect()
        harness.call(
            at: 0, BlueZ.adapterPath, BlueZ.adapterInterface, "SetDiscoveryFilter",
            [.vardict(["RSSI": .int16(-47)])], from: other)
        harness.startDiscovery(at: 100)
        harness.startDiscovery(at: 100, from: other)
        harness.advance(to: 5000)
        // The lamp by name; the stream sensor (around -45 dBm) whenever it is at -47 or better.
        XCTAssertEqual(
            Set(harness.interfacesAdded().map(\.path)),
            [BlueZ.devicePath(Address.light), BlueZ.devicePath(Address.fastNotifier)])
        // With an RSSI filter set, BlueZ reports every RSSI change.
        XCTAssertFalse(harness.values(of: "RSSI", BlueZ.devicePath(Address.light), BlueZ.deviceInterface).isEmpty)
    }

    func testInvalidFiltersAreRefused() {
        let harness = Harness()
        for filter: [String: DBusValue] in [
            ["Color": .string("red")], ["RSSI": .int32(-60)], ["Transport": .string("usb")],
            ["RSSI": .int16(-60), "Pathloss": .uint16(20)],
        ] {
            let call = harness.callNow(
                BlueZ.adapterPath, BlueZ.adapterInterface, "SetDiscoveryFilter", [.vardict(filter)])
            XCTAssertEqual(
                call.error,
                DBusError(name: BlueZErrorName.invalidArguments, message: "Invalid arguments in method call"),
                "\(filter)")
        }
        let clear = harness.callNow(BlueZ.adapterPath, BlueZ.adapterInterface, "SetDiscoveryFilter", [.vardict([:])])
        XCTAssertNotNil(clear.value)
    }

    func testTheRenamingPhoneChangesNameAndAliasEveryFiveSecondsWhileItIsKnown() {
        let harness = Harness()
        harness.startDiscovery(at: 0)
        harness.advance(to: 16_000)
        let path = BlueZ.devicePath(Address.renamingPhone)
        let names = harness.values(of: "Name", path, BlueZ.deviceInterface)
        XCTAssertEqual(names.map(\.0), [5100, 10_100, 15_100])
        XCTAssertEqual(
            names.map(\.1), [.string("Phone Sim (busy)"), .string("Phone Sim (away)"), .string("Phone Sim")])
        XCTAssertEqual(harness.values(of: "Alias", path, BlueZ.deviceInterface).map(\.1), names.map(\.1))
        // An alias set by a client holds.
        _ = harness.setProperty(path, BlueZ.deviceInterface, "Alias", .string("My phone"))
        harness.advance(to: 21_000)
        XCTAssertEqual(harness.property(path, BlueZ.deviceInterface, "Alias"), .string("My phone"))
        XCTAssertEqual(harness.property(path, BlueZ.deviceInterface, "Name"), .string("Phone Sim (busy)"))
        // Once the device is forgotten nothing is left to do: the scheduler runs dry.
        harness.stopDiscovery(at: 22_000)
        harness.scheduler.start()
        XCTAssertFalse(harness.simulation.snapshot.device(Address.renamingPhone)?.isOnBus ?? true)
    }

    func testRemoveDeviceForgetsIt() {
        let harness = Harness()
        harness.startDiscovery(at: 0)
        harness.advance(to: 200)
        let path = BlueZ.devicePath(Address.thermometer)
        let remove = harness.callNow(BlueZ.adapterPath, BlueZ.adapterInterface, "RemoveDevice", [.objectPath(path)])
        XCTAssertNotNil(remove.value)
        XCTAssertEqual(harness.interfacesRemoved().map(\.path), [path])
        let again = harness.callNow(BlueZ.adapterPath, BlueZ.adapterInterface, "RemoveDevice", [.objectPath(path)])
        XCTAssertEqual(again.error, DBusError(name: BlueZErrorName.doesNotExist, message: "Does Not Exist"))
        // Still discovering: it is found again with its next advertisement, as a new device.
        harness.advance(to: 1100)
        XCTAssertEqual(harness.interfacesAdded(since: 201).map(\.path), [path])
    }
}
