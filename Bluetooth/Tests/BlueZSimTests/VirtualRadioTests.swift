import BlueZSim
import RxDBus
import XCTest

/// A peripheral program on one connection, a central (raw D-Bus calls) on another, one simulated
/// BlueZ between them, in virtual time.
final class VirtualRadioTests: XCTestCase {
    typealias Program = PeripheralProgram

    private typealias Setup = VirtualRadioSetup

    private func registered() throws -> Setup { try VirtualRadioSetup.registered() }

    private func connected() throws -> Setup { try VirtualRadioSetup.connected() }

    private func path(_ setup: Setup, _ uuid: String, interface: String = BlueZ.gattCharacteristicInterface)
        -> DBusObjectPath?
    {
        setup.path(uuid, interface: interface)
    }

    func testTheAdvertisementBecomesADeviceOthersDiscover() throws {
        let setup = try registered()
        let address = setup.address
        // The adapter's address, made a static random one: the same in every run.
        XCTAssertEqual(address, "C0:1A:7D:DA:71:0A")
        setup.harness.startDiscovery(at: 0)
        setup.harness.advance(to: 200)
        let added = try XCTUnwrap(setup.harness.interfacesAdded().first { $0.path == setup.device })
        XCTAssertEqual(added.time, 100)
        let device = try XCTUnwrap(added.interfaces[BlueZ.deviceInterface])
        XCTAssertEqual(device["Address"], .string(address))
        XCTAssertEqual(device["AddressType"], .string("random"))
        XCTAssertEqual(device["Name"], .string("Peri Sim"))
        XCTAssertEqual(device["UUIDs"], .strings([Program.serviceUUID]))
        XCTAssertNotNil(device["RSSI"])
        XCTAssertEqual(
            device["ManufacturerData"]?.dictionaryEntries?.first?.value.unwrapped, .bytes([1, 2]))
        XCTAssertEqual(
            setup.harness.property(BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "ActiveInstances"), .byte(1))
        XCTAssertEqual(
            setup.harness.property(BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "SupportedInstances"),
            .byte(3))
    }

    func testTheCentralFindsBlueZsServicesThenTheApplicationsWithBlueZsPathsAndHandles() throws {
        let setup = try connected()
        let objects = setup.harness.managedObjects()
        let service = try XCTUnwrap(path(setup, Program.serviceUUID, interface: BlueZ.gattServiceInterface))
        XCTAssertEqual(service.rawValue, setup.device.rawValue + "/service0013")
        XCTAssertEqual(objects[service]?[BlueZ.gattServiceInterface]?["Handle"], .uint16(0x13))
        for uuid in ["1800", "1801", "180a"] {
            XCTAssertNotNil(path(setup, uuid, interface: BlueZ.gattServiceInterface), uuid)
        }
        let notifying = try XCTUnwrap(path(setup, Program.notifyingUUID))
        XCTAssertEqual(objects[notifying]?[BlueZ.gattCharacteristicInterface]?["Flags"], .strings(["notify"]))
        XCTAssertEqual(objects[notifying]?[BlueZ.gattCharacteristicInterface]?["MTU"], .uint16(517))
        let descriptors = objects.filter { $0.key.isWithin(notifying) && $0.key != notifying }.keys.sorted()
        XCTAssertEqual(
            descriptors.compactMap { objects[$0]?[BlueZ.gattDescriptorInterface]?["UUID"]?.string },
            [BluetoothUUID.canonical("2902"), BluetoothUUID.canonical("2901")])
        XCTAssertEqual(setup.harness.property(setup.device, BlueZ.deviceInterface, "ServicesResolved"), .bool(true))
        // The program's objects with a Handle of 0 were told theirs (a characteristic's value handle).
        XCTAssertEqual(setup.program.serviceObject.property("Handle", of: BlueZ.gattServiceInterface), .uint16(0x13))
        XCTAssertEqual(
            setup.program.readableObject.property("Handle", of: BlueZ.gattCharacteristicInterface), .uint16(0x15))
    }

    func testReadsAndWritesReachTheProgramWithBlueZsOptions() throws {
        let setup = try connected()
        let harness = setup.harness
        let interface = BlueZ.gattCharacteristicInterface
        let readable = try XCTUnwrap(path(setup, Program.readableUUID))
        let read = harness.callNow(readable, interface, "ReadValue", [options()])
        XCTAssertEqual(read.value, [.bytes([0x2A])])
        XCTAssertEqual(harness.property(readable, interface, "Value"), .bytes([0x2A]))
        let expected = DBusValue.vardict([
            "device": .objectPath(BlueZ.devicePath("00:1A:7D:DA:71:0A")), "link": .string("LE"), "mtu": .uint16(517),
        ])
        XCTAssertEqual(
            setup.program.calls("ReadValue"),
            [.init(path: Program.readable, member: "ReadValue", arguments: [expected])])

        let writable = try XCTUnwrap(path(setup, Program.writableUUID))
        let write = harness.callNow(writable, interface, "WriteValue", [.bytes([1, 2, 3]), options()])
        XCTAssertNotNil(write.value, "\(String(describing: write.error))")
        XCTAssertEqual(setup.program.calls("WriteValue").last?.arguments, [.bytes([1, 2, 3]), expected])
        let offset = harness.callNow(writable, interface, "WriteValue", [.bytes([4]), options(["offset": .uint16(2)])])
        XCTAssertNotNil(offset.value)
        XCTAssertEqual(
            setup.program.calls("WriteValue").last?.arguments.last?.stringKeyed?["offset"]?.unwrapped, .uint16(2))

        // The program's error, carried as bluetoothd carries it (its ATT code, then the central's error).
        let refused = harness.callNow(writable, interface, "WriteValue", [.bytes([0xFF]), options()])
        XCTAssertEqual(refused.error, DBusError(name: BlueZErrorName.invalidValueLength, message: "Invalid Length"))
        let centralErrors: [UInt8: DBusError] = [
            0xF0: DBusError(name: BlueZErrorName.notPermitted, message: "Write not permitted"),
            0xF1: DBusError(name: BlueZErrorName.notAuthorized, message: "Operation Not Authorized"),
            0xF2: DBusError(name: BlueZErrorName.notSupported, message: "Operation is not supported"),
            0xF3: DBusError(name: BlueZErrorName.failed, message: "Operation failed with ATT error: 0x81"),
            0xF4: DBusError(name: BlueZErrorName.failed, message: "Operation failed with ATT error: 0x80"),
            0xF5: DBusError(name: BlueZErrorName.failed, message: "Operation failed with ATT error: 0x0e"),
        ]
        for (byte, error) in centralErrors {
            let answer = harness.callNow(writable, interface, "WriteValue", [.bytes([byte]), options()])
            XCTAssertEqual(answer.error, error, "the program's \(Program.writeErrors[byte]!)")
        }
        // Refused by BlueZ by the flags, without asking the program.
        let calls = setup.program.calls.count
        // A characteristic with no write property: bluetoothd's client refuses before sending anything.
        let readOnly = harness.callNow(readable, interface, "WriteValue", [.bytes([1]), options()])
        XCTAssertEqual(readOnly.error?.name, BlueZErrorName.notSupported)
        let writeOnly = harness.callNow(writable, interface, "ReadValue", [options()])
        XCTAssertEqual(writeOnly.error, DBusError(name: BlueZErrorName.notPermitted, message: "Read not permitted"))
        XCTAssertEqual(setup.program.calls.count, calls)

        let descriptor = try XCTUnwrap(path(setup, "2901", interface: BlueZ.gattDescriptorInterface))
        let description = harness.callNow(descriptor, BlueZ.gattDescriptorInterface, "ReadValue", [options()])
        XCTAssertEqual(description.value, [.bytes(Array("Counter".utf8))])
    }

    func testNotificationsTravelFromTheProgramsValueToTheCentral() throws {
        let setup = try connected()
        let harness = setup.harness
        let notifying = try XCTUnwrap(path(setup, Program.notifyingUUID))
        let interface = BlueZ.gattCharacteristicInterface
        XCTAssertNotNil(harness.callNow(notifying, interface, "StartNotify").value)
        XCTAssertEqual(setup.program.calls("StartNotify").map(\.path), [Program.notifying])
        XCTAssertEqual(harness.property(notifying, interface, "Notifying"), .bool(true))
        harness.at(1000) { setup.program.notify([1]) }
        harness.at(1100) { setup.program.notify([2]) }
        harness.advance(to: 1200)
        XCTAssertEqual(
            harness.values(of: "Value", notifying, interface).map { $0.0 }, [1000, 1100])
        XCTAssertEqual(harness.values(of: "Value", notifying, interface).map { $0.1 }, [.bytes([1]), .bytes([2])])
        XCTAssertEqual(harness.simulation.snapshot.device(setup.address)?.notificationCounts[notifying], 2)

        XCTAssertNotNil(harness.callNow(notifying, interface, "StopNotify").value)
        XCTAssertEqual(setup.program.calls("StopNotify").map(\.path), [Program.notifying])
        harness.at(1300) { setup.program.notify([3]) }
        harness.advance(to: 1400)
        XCTAssertEqual(harness.values(of: "Value", notifying, interface).count, 2)
    }

    func testTheProgramLeavingIsALinkLossToTheCentral() throws {
        let setup = try connected()
        let harness = setup.harness
        harness.at(1000) { setup.peripheral.close() }
        harness.advance(to: 1100)
        let disconnected = harness.signals.filter { $0.path == setup.device && $0.member == "Disconnected" }
        XCTAssertEqual(disconnected.map(\.time), [1000])
        XCTAssertEqual(
            disconnected.first?.message.body,
            [.string(DisconnectReason.timeout.rawValue), .string(DisconnectReason.timeout.message)])
        XCTAssertEqual(harness.values(of: "Connected", setup.device, BlueZ.deviceInterface).last?.1, .bool(false))
        XCTAssertTrue(harness.interfacesRemoved(since: 1000).contains { $0.path.isWithin(setup.device) })
        XCTAssertNil(path(setup, Program.notifyingUUID))
        XCTAssertEqual(
            harness.property(BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "ActiveInstances"), .byte(0))
        // Not heard any more: connecting again fails.
        let again = harness.deviceCall(at: 1100, setup.address, "Connect")
        harness.advance(to: 1500)
        XCTAssertEqual(again.error?.name, BlueZErrorName.failed)
    }

    func testUnregisteringAndRegisteringAgainMidConnectionChangesTheServicesNotTheLink() throws {
        let setup = try connected()
        let harness = setup.harness
        let notifying = try XCTUnwrap(path(setup, Program.notifyingUUID))
        XCTAssertNotNil(harness.callNow(notifying, BlueZ.gattCharacteristicInterface, "StartNotify").value)
        harness.advance(to: 1000)
        let unregister = harness.callNow(
            BlueZ.adapterPath, BlueZ.gattManagerInterface, "UnregisterApplication", [.objectPath(Program.root)],
            from: setup.peripheral)
        XCTAssertNotNil(unregister.value)
        XCTAssertTrue(harness.signals.filter { $0.path == setup.device && $0.member == "Disconnected" }.isEmpty)
        XCTAssertEqual(harness.property(setup.device, BlueZ.deviceInterface, "Connected"), .bool(true))
        XCTAssertTrue(harness.interfacesRemoved(since: 1000).contains { $0.path == notifying })
        XCTAssertNil(path(setup, Program.serviceUUID, interface: BlueZ.gattServiceInterface))
        XCTAssertNotNil(path(setup, "1800", interface: BlueZ.gattServiceInterface))
        XCTAssertTrue(setup.program.calls("StopNotify").isEmpty, "bluetoothd calls an unregistered application no more")
        // The program registers again (as a PeripheralManager does to change its services).
        harness.advance(to: 1100)
        let again = harness.callNow(
            BlueZ.adapterPath, BlueZ.gattManagerInterface, "RegisterApplication",
            [.objectPath(Program.root), options()], from: setup.peripheral)
        XCTAssertNotNil(again.value)
        XCTAssertTrue(harness.interfacesAdded(since: 1100).contains { $0.path == notifying })
        let read = harness.callNow(
            try XCTUnwrap(path(setup, Program.readableUUID)), BlueZ.gattCharacteristicInterface, "ReadValue",
            [options()])
        XCTAssertEqual(read.value, [.bytes([0x2A])])
    }
}
