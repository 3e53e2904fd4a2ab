import BlueZSim
import RxDBus
import XCTest

final class ConnectionTests: XCTestCase {
    typealias Address = StandardDevices.Address

    /// Discovery from 0: every device is on the bus from 100.
    private func discovered() -> Harness {
        let harness = Harness()
        harness.startDiscovery(at: 0)
        harness.advance(to: 100)
        return harness
    }

    func testConnectBringsTheLinkUpThenTheGattObjectsThenServicesResolved() throws {
        let harness = discovered()
        let address = Address.light
        let device = BlueZ.devicePath(address)
        let connect = harness.deviceCall(at: 1000, address, "Connect")
        harness.advance(to: 1299)
        XCTAssertNil(connect.result)
        XCTAssertTrue(harness.simulation.snapshot.device(address)?.isConnecting == true)
        harness.advance(to: 1300)
        XCTAssertEqual(connect.time, 1300)
        XCTAssertNotNil(connect.value)
        XCTAssertEqual(harness.values(of: "Connected", device, BlueZ.deviceInterface).map(\.0), [1300])
        harness.advance(to: 1500)
        let added = harness.interfacesAdded(since: 1001)
        XCTAssertTrue(added.allSatisfy { $0.time == 1500 })
        XCTAssertEqual(
            added.map { $0.path.rawValue.dropFirst(device.rawValue.count) },
            [
                "/service0001", "/service0001/char0002", "/service0001/char0004", "/service0006",
                "/service0006/char0007", "/service0006/char0007/desc0009", "/service000a", "/service000a/char000b",
                "/service000a/char000b/desc000d", "/service000a/char000e", "/service000a/char000e/desc0010",
                "/service000a/char0011", "/service000a/char0011/desc0013",
            ])
        XCTAssertEqual(
            harness.sequence(since: 1500).suffix(2),
            [
                "PropertiesChanged dev_00_1B_DC_0B_00_03 UUIDs",
                "PropertiesChanged dev_00_1B_DC_0B_00_03 ServicesResolved",
            ])
        XCTAssertEqual(
            harness.property(device, BlueZ.deviceInterface, "UUIDs"),
            .strings([
                "00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805f9b34fb",
                StandardDevices.UUID.lightService,
            ]))
        XCTAssertEqual(harness.property(device, BlueZ.deviceInterface, "ServicesResolved"), .bool(true))

        // Connected again: at once.
        let again = harness.deviceCall(at: 2000, address, "Connect")
        harness.advance(to: 2000)
        XCTAssertEqual(again.time, 2000)
        XCTAssertNotNil(again.value)
    }

    func testDisconnectTakesTheGattObjectsAwayAndSaysWhy() {
        let harness = discovered()
        let address = Address.light
        harness.deviceCall(at: 1000, address, "Connect")
        let disconnect = harness.deviceCall(at: 3000, address, "Disconnect")
        harness.advance(to: 3000)
        XCTAssertEqual(disconnect.time, 3000)
        XCTAssertNotNil(disconnect.value)
        let sequence = harness.sequence(since: 3000)
        XCTAssertEqual(sequence.first, "PropertiesChanged dev_00_1B_DC_0B_00_03 ServicesResolved")
        XCTAssertEqual(
            Array(sequence.dropFirst().prefix(4)),
            [
                "InterfacesRemoved char0002", "InterfacesRemoved char0004", "InterfacesRemoved service0001",
                "InterfacesRemoved desc0009",
            ])
        XCTAssertEqual(
            sequence.suffix(2),
            ["Disconnected dev_00_1B_DC_0B_00_03", "PropertiesChanged dev_00_1B_DC_0B_00_03 Connected"])
        XCTAssertEqual(harness.interfacesRemoved(since: 3000).count, 13)
        let disconnected = harness.signals.last { $0.member == "Disconnected" }
        XCTAssertEqual(
            disconnected?.message.body,
            [.string("org.bluez.Reason.Local"), .string("Connection terminated by local host")])
        XCTAssertEqual(disconnected?.message.interface, BlueZ.deviceInterface)
        // Disconnecting a device that is not connected succeeds.
        let again = harness.deviceCall(at: 4000, address, "Disconnect")
        harness.advance(to: 4000)
        XCTAssertNotNil(again.value)
    }

    func testAFailedConnectionAttemptLeavesTheDeviceDisconnected() {
        let harness = discovered()
        harness.simulation.failNextConnect(address: Address.thermometer)
        let connect = harness.deviceCall(at: 1000, Address.thermometer, "Connect")
        harness.advance(to: 1300)
        XCTAssertEqual(connect.time, 1300)
        XCTAssertEqual(connect.error, DBusError(name: BlueZErrorName.failed, message: "le-connection-abort-by-local"))
        XCTAssertTrue(
            harness.values(of: "Connected", BlueZ.devicePath(Address.thermometer), BlueZ.deviceInterface).isEmpty)
        // Only the next attempt fails.
        let retry = harness.deviceCall(at: 2000, Address.thermometer, "Connect")
        harness.advance(to: 2300)
        XCTAssertNotNil(retry.value)
    }

    func testConnectWhilePoweredOffIsNotReadyAndASecondConnectIsInProgress() {
        let harness = discovered()
        let first = harness.deviceCall(at: 1000, Address.light, "Connect")
        let second = harness.deviceCall(at: 1100, Address.light, "Connect")
        harness.advance(to: 1100)
        XCTAssertEqual(second.error, DBusError(name: BlueZErrorName.inProgress, message: "In Progress"))
        harness.advance(to: 1300)
        XCTAssertNotNil(first.value)

        harness.at(2000) { harness.simulation.setPowered(false) }
        let off = harness.deviceCall(at: 2100, Address.thermometer, "Connect")
        harness.advance(to: 2100)
        XCTAssertEqual(off.error, DBusError(name: BlueZErrorName.notReady, message: "Resource Not Ready"))
    }

    func testDisconnectDuringTheAttemptCancelsIt() {
        let harness = discovered()
        let connect = harness.deviceCall(at: 1000, Address.light, "Connect")
        let disconnect = harness.deviceCall(at: 1100, Address.light, "Disconnect")
        harness.advance(to: 2000)
        XCTAssertEqual(connect.time, 1100)
        XCTAssertEqual(connect.error, DBusError(name: BlueZErrorName.failed, message: "br-connection-canceled"))
        XCTAssertNotNil(disconnect.value)
        XCTAssertEqual(harness.simulation.snapshot.device(Address.light)?.isConnected, false)
    }

    func testTheFlakySensorLosesItsLinkTenSecondsAfterConnecting() {
        let harness = discovered()
        harness.deviceCall(at: 1000, Address.flakySensor, "Connect")
        harness.advance(to: 20_000)
        let path = BlueZ.devicePath(Address.flakySensor)
        XCTAssertEqual(harness.values(of: "Connected", path, BlueZ.deviceInterface).map(\.0), [1300, 11_300])
        let disconnected = harness.signals.filter { $0.member == "Disconnected" && $0.path == path }
        XCTAssertEqual(disconnected.map(\.time), [11_300])
        XCTAssertEqual(
            disconnected.first?.message.body, [.string("org.bluez.Reason.Timeout"), .string("Connection timeout")])
    }

    func testPairBondsAndMakesTheDevicePermanent() {
        let harness = discovered()
        let path = BlueZ.devicePath(Address.batteryTag)
        let pair = harness.deviceCall(at: 1000, Address.batteryTag, "Pair")
        harness.advance(to: 1300)
        XCTAssertEqual(pair.time, 1300)
        XCTAssertNotNil(pair.value)
        XCTAssertEqual(harness.property(path, BlueZ.deviceInterface, "Paired"), .bool(true))
        XCTAssertEqual(harness.property(path, BlueZ.deviceInterface, "Bonded"), .bool(true))
        XCTAssertEqual(harness.property(path, BlueZ.deviceInterface, "Connected"), .bool(true))
        let again = harness.deviceCall(at: 1400, Address.batteryTag, "Pair")
        let cancel = harness.deviceCall(at: 1400, Address.batteryTag, "CancelPairing")
        harness.advance(to: 1400)
        XCTAssertEqual(again.error, DBusError(name: BlueZErrorName.alreadyExists, message: "Already Exists"))
        XCTAssertEqual(cancel.error, DBusError(name: BlueZErrorName.doesNotExist, message: "Does Not Exist"))
        XCTAssertEqual(harness.simulation.snapshot.device(Address.batteryTag)?.isTemporary, false)
    }

    func testCancelPairingEndsAPairWaitingForItsConnection() {
        let harness = discovered()
        let pair = harness.deviceCall(at: 1000, Address.thermometer, "Pair")
        let cancel = harness.deviceCall(at: 1100, Address.thermometer, "CancelPairing")
        harness.advance(to: 2000)
        XCTAssertNotNil(cancel.value)
        XCTAssertEqual(
            pair.error, DBusError(name: BlueZErrorName.authenticationCanceled, message: "Authentication Canceled"))
        XCTAssertEqual(harness.simulation.snapshot.device(Address.thermometer)?.isConnected, false)
    }

    func testProfilesAreNotSupported() {
        let harness = discovered()
        let connect = harness.deviceCall(Address.light, "ConnectProfile", [.string("180f")])
        let disconnect = harness.deviceCall(Address.light, "DisconnectProfile", [.string("180f")])
        harness.advance(by: 0)
        XCTAssertEqual(connect.error?.name, BlueZErrorName.notSupported)
        XCTAssertEqual(disconnect.error?.name, BlueZErrorName.notSupported)
    }

    func testTrustedAndBlockedAreWritableAndBlockingDropsTheLink() {
        let harness = discovered()
        let path = BlueZ.devicePath(Address.light)
        harness.deviceCall(at: 1000, Address.light, "Connect")
        harness.advance(to: 2000)
        XCTAssertNotNil(harness.setProperty(path, BlueZ.deviceInterface, "Trusted", .bool(true)).value)
        XCTAssertEqual(harness.simulation.snapshot.device(Address.light)?.isTrusted, true)
        XCTAssertNotNil(harness.setProperty(path, BlueZ.deviceInterface, "Blocked", .bool(true)).value)
        XCTAssertEqual(harness.property(path, BlueZ.deviceInterface, "Connected"), .bool(false))
        let readOnly = harness.setProperty(path, BlueZ.deviceInterface, "Connected", .bool(true))
        XCTAssertEqual(readOnly.error?.name, DBusError.propertyReadOnly)
    }

    func testABondedDeviceKeepsItsGattObjectsAndNotifySessionsAcrossConnections() {
        let harness = discovered()
        let address = Address.batteryTag
        let level = harness.characteristic(address, "2a19")
        let interface = BlueZ.gattCharacteristicInterface
        harness.deviceCall(at: 1000, address, "Pair")
        harness.call(at: 2000, level, interface, "StartNotify")
        harness.deviceCall(at: 3500, address, "Disconnect")
        let read = harness.call(at: 4000, level, interface, "ReadValue", [options()])
        let write = harness.call(at: 4000, level, interface, "WriteValue", [.bytes([1]), options()])
        harness.advance(to: 6000)
        XCTAssertTrue(harness.interfacesRemoved(since: 3500).isEmpty, "bluetoothd keeps a bonded device's cache")
        XCTAssertEqual(read.error, DBusError(name: BlueZErrorName.failed, message: "Not connected"))
        XCTAssertEqual(write.error, DBusError(name: BlueZErrorName.failed, message: "Not connected"))
        XCTAssertEqual(harness.values(of: "Value", level, interface).map(\.0), [3000])
        XCTAssertEqual(harness.values(of: "Notifying", level, interface).map(\.0), [2000])
        XCTAssertEqual(
            harness.property(BlueZ.devicePath(address), BlueZ.deviceInterface, "ServicesResolved"), .bool(false))

        // Connected again: no new objects, ServicesResolved, and the session's notifications resume.
        harness.deviceCall(at: 6000, address, "Connect")
        harness.advance(to: 8500)
        XCTAssertTrue(harness.interfacesAdded(since: 6000).isEmpty)
        XCTAssertEqual(
            harness.values(of: "ServicesResolved", BlueZ.devicePath(address), BlueZ.deviceInterface, since: 6000)
                .map(\.0), [6500])
        XCTAssertEqual(harness.values(of: "Value", level, interface, since: 6000).map(\.0), [7500, 8500])
        XCTAssertEqual(harness.simulation.snapshot.device(address)?.notifyClients[level], [harness.client.uniqueName])

        // Removing the device takes the cache with it.
        let remove = harness.call(
            at: 9000, BlueZ.adapterPath, BlueZ.adapterInterface, "RemoveDevice",
            [.objectPath(BlueZ.devicePath(address))])
        harness.advance(to: 9000)
        XCTAssertNotNil(remove.value)
        XCTAssertEqual(harness.interfacesRemoved(since: 9000).last?.path, BlueZ.devicePath(address))
        XCTAssertTrue(harness.interfacesRemoved(since: 9000).contains { $0.path == level })
    }
}
