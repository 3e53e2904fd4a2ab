import BlueZSim
import RxDBus
import XCTest

final class AdapterTests: XCTestCase {
    func testTheAdapterHasEveryDocumentedPropertyWithItsType() throws {
        let harness = Harness()
        let objects = harness.managedObjects()
        let adapter = try XCTUnwrap(objects[BlueZ.adapterPath]?[BlueZ.adapterInterface])
        XCTAssertEqual(adapter["Address"], .string("00:1A:7D:DA:71:0A"))
        XCTAssertEqual(adapter["AddressType"], .string("public"))
        XCTAssertEqual(adapter["Name"], .string("bluez-sim"))
        XCTAssertEqual(adapter["Alias"], .string("bluez-sim"))
        XCTAssertEqual(adapter["Class"]?.signature, "u")
        XCTAssertEqual(adapter["Connectable"], .bool(true))
        XCTAssertEqual(adapter["Powered"], .bool(true))
        XCTAssertEqual(adapter["PowerState"], .string("on"))
        XCTAssertEqual(adapter["Discoverable"], .bool(false))
        XCTAssertEqual(adapter["DiscoverableTimeout"], .uint32(180))
        XCTAssertEqual(adapter["Pairable"], .bool(true))
        XCTAssertEqual(adapter["PairableTimeout"], .uint32(0))
        XCTAssertEqual(adapter["Discovering"], .bool(false))
        XCTAssertEqual(adapter["Modalias"]?.signature, "s")
        XCTAssertEqual(adapter["Roles"], .strings(["central", "peripheral"]))
        XCTAssertEqual(adapter["Manufacturer"]?.signature, "q")
        XCTAssertEqual(adapter["Version"]?.signature, "y")
        let uuids = try XCTUnwrap(adapter["UUIDs"]?.strings)
        XCTAssertTrue(uuids.contains("00001800-0000-1000-8000-00805f9b34fb"))
        XCTAssertEqual(uuids, uuids.map { $0.lowercased() }.sorted())
        XCTAssertTrue(uuids.allSatisfy { $0.count == 36 })
        XCTAssertNotNil(objects[BlueZ.adapterPath]?[BlueZ.gattManagerInterface])
        XCTAssertEqual(objects[BlueZ.adapterPath]?[BlueZ.advertisingManagerInterface]?["SupportedInstances"], .byte(4))
        XCTAssertNotNil(objects[BlueZ.managerPath]?[BlueZ.agentManagerInterface])
        // No device is known before discovery.
        XCTAssertEqual(objects.keys.filter { $0.isWithin(BlueZ.adapterPath) && $0 != BlueZ.adapterPath }, [])
    }

    func testTheSimulationOwnsOrgBluezAndLeavesTheBusWhenDisposed() {
        let harness = Harness()
        let owner = harness.call(
            DBusStandard.busPath, DBusStandard.busName, "GetNameOwner", [.string(BlueZ.busName)],
            destination: DBusStandard.busName)
        harness.advance(by: 0)
        XCTAssertEqual(owner.value, [.string(harness.server.uniqueName)])
        harness.stop()
        let after = harness.call(
            BlueZ.adapterPath, DBusStandard.properties, "Get", [.string(BlueZ.adapterInterface), .string("Powered")])
        harness.advance(by: 0)
        XCTAssertEqual(after.error?.name, DBusError.serviceUnknown)
        XCTAssertFalse(harness.simulation.snapshot.isRunning)
    }

    func testPoweringOffPassesThroughOnDisablingAndRefusesDiscovery() {
        let harness = Harness()
        harness.advance(to: 500)
        XCTAssertNotNil(harness.setProperty(BlueZ.adapterPath, BlueZ.adapterInterface, "Powered", .bool(false)).value)
        XCTAssertEqual(
            harness.changes(BlueZ.adapterPath, BlueZ.adapterInterface).map(\.changed),
            [["PowerState": .string("on-disabling")], ["Powered": .bool(false), "PowerState": .string("off")]])
        XCTAssertEqual(harness.simulation.snapshot.isPowered, false)

        let start = harness.startDiscovery()
        harness.advance(by: 0)
        XCTAssertEqual(start.error, DBusError(name: BlueZErrorName.notReady, message: "Resource Not Ready"))
        let discoverable = harness.setProperty(BlueZ.adapterPath, BlueZ.adapterInterface, "Discoverable", .bool(true))
        XCTAssertEqual(discoverable.error, DBusError(name: BlueZErrorName.failed, message: "Not Powered"))

        harness.advance(to: 700)
        harness.simulation.setPowered(true)
        harness.advance(by: 0)
        XCTAssertEqual(
            harness.changes(BlueZ.adapterPath, BlueZ.adapterInterface, since: 700).map(\.changed),
            [["PowerState": .string("off-enabling")], ["Powered": .bool(true), "PowerState": .string("on")]])
        let restarted = harness.startDiscovery()
        harness.advance(by: 0)
        XCTAssertNotNil(restarted.value)
    }

    func testAnEmptyAliasGoesBackToTheSystemName() {
        let harness = Harness()
        XCTAssertNotNil(harness.setProperty(BlueZ.adapterPath, BlueZ.adapterInterface, "Alias", .string("desk")).value)
        XCTAssertEqual(harness.property(BlueZ.adapterPath, BlueZ.adapterInterface, "Alias"), .string("desk"))
        XCTAssertNotNil(harness.setProperty(BlueZ.adapterPath, BlueZ.adapterInterface, "Alias", .string("")).value)
        harness.advance(by: 1)
        XCTAssertEqual(harness.property(BlueZ.adapterPath, BlueZ.adapterInterface, "Alias"), .string("bluez-sim"))
    }

    func testDiscoverableEndsAfterItsTimeout() {
        let harness = Harness()
        _ = harness.setProperty(BlueZ.adapterPath, BlueZ.adapterInterface, "DiscoverableTimeout", .uint32(2))
        XCTAssertNotNil(
            harness.setProperty(BlueZ.adapterPath, BlueZ.adapterInterface, "Discoverable", .bool(true)).value)
        harness.advance(to: 5000)
        XCTAssertEqual(
            harness.values(of: "Discoverable", BlueZ.adapterPath, BlueZ.adapterInterface).map { $0.0 }, [0, 2000])
        XCTAssertEqual(harness.property(BlueZ.adapterPath, BlueZ.adapterInterface, "Discoverable"), .bool(false))
        let readOnly = harness.setProperty(BlueZ.adapterPath, BlueZ.adapterInterface, "Discovering", .bool(true))
        XCTAssertEqual(readOnly.error?.name, DBusError.propertyReadOnly)
    }

    /// The peripheral role's managers read the registering client's objects (RegistrationTests and
    /// VirtualRadioTests try them with objects): with none, an application is refused, and an
    /// advertisement waits for its object, unanswered, as bluetoothd waits.
    func testThePeripheralRoleReadsTheCallersObjects() {
        let harness = Harness()
        let register = harness.callNow(
            BlueZ.adapterPath, BlueZ.gattManagerInterface, "RegisterApplication",
            [.objectPath("/app"), .vardict([:])])
        XCTAssertEqual(register.error, DBusError(name: BlueZErrorName.failed, message: "No object received"))
        let advertise = harness.callNow(
            BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "RegisterAdvertisement",
            [.objectPath("/adv"), .vardict([:])])
        XCTAssertNil(advertise.result)
        XCTAssertEqual(
            harness.property(BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "ActiveInstances"), .byte(1))
    }

    func testGetDiscoveryFiltersListsBlueZsFilters() {
        let harness = Harness()
        let filters = harness.callNow(BlueZ.adapterPath, BlueZ.adapterInterface, "GetDiscoveryFilters")
        XCTAssertEqual(
            filters.value,
            [
                .strings([
                    "UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern", "AutoConnect",
                ])
            ])
    }
}
