import BlueZSim
import RxDBus
import XCTest

/// A peripheral program that changes its advertisement and its services after registering them.
final class VirtualRadioChangeTests: XCTestCase {
    typealias Program = PeripheralProgram

    func testAChangedAdvertisementChangesWhatTheCentralSees() throws {
        let setup = try VirtualRadioSetup.registered()
        let harness = setup.harness
        harness.startDiscovery(at: 0)
        harness.advance(to: 200)
        XCTAssertEqual(harness.property(setup.device, BlueZ.deviceInterface, "Name"), .string("Peri Sim"))
        harness.at(1000) {
            setup.program.advertisementObject.update(
                BlueZ.advertisementInterface,
                ["LocalName": .string("Peri Two"), "ServiceData": .vardict(["180f": .bytes([99])])])
        }
        harness.advance(to: 2200)
        XCTAssertEqual(harness.values(of: "Name", setup.device, BlueZ.deviceInterface).map(\.0), [1000])
        XCTAssertEqual(harness.property(setup.device, BlueZ.deviceInterface, "Alias"), .string("Peri Two"))
        let serviceData = harness.property(setup.device, BlueZ.deviceInterface, "ServiceData")
        XCTAssertEqual(
            serviceData?.stringKeyed?[BluetoothUUID.canonical("180f")]?.unwrapped, .bytes([99]),
            "with the next advertisement report")
        // A value bluetoothd cannot parse changes nothing.
        harness.at(2300) {
            setup.program.advertisementObject.update(BlueZ.advertisementInterface, ["Type": .string("beacon")])
        }
        harness.advance(to: 3500)
        XCTAssertEqual(harness.property(setup.device, BlueZ.deviceInterface, "Name"), .string("Peri Two"))
    }

    func testAServiceObjectLeavingTakesTheServiceAwayFromTheCentral() throws {
        let setup = try VirtualRadioSetup.connected()
        let harness = setup.harness
        let service = try XCTUnwrap(setup.path(Program.serviceUUID, interface: BlueZ.gattServiceInterface))
        harness.at(1000) { setup.program.removeService() }
        harness.advance(to: 1100)
        XCTAssertTrue(harness.interfacesRemoved(since: 1000).contains { $0.path == service })
        XCTAssertNil(setup.path(Program.serviceUUID, interface: BlueZ.gattServiceInterface))
        XCTAssertEqual(harness.property(setup.device, BlueZ.deviceInterface, "Connected"), .bool(true))
        XCTAssertEqual(harness.simulation.registrations.applications.map(\.path), [Program.root])
    }

    func testABroadcastIsSeenButCannotBeConnected() throws {
        let setup = try VirtualRadioSetup.registered(advertisement: ["Type": .string("broadcast")])
        let harness = setup.harness
        harness.startDiscovery(at: 0)
        harness.advance(to: 200)
        XCTAssertEqual(harness.property(setup.device, BlueZ.deviceInterface, "Name"), .string("Peri Sim"))
        let connect = harness.deviceCall(at: 200, setup.address, "Connect")
        harness.advance(to: 600)
        XCTAssertEqual(connect.error, DBusError(name: BlueZErrorName.failed, message: "le-connection-abort-by-local"))
    }

    func testACentralLeavingTheBusStopsTheProgramsNotifications() throws {
        let setup = try VirtualRadioSetup.connected()
        let harness = setup.harness
        let notifying = try XCTUnwrap(setup.path(Program.notifyingUUID))
        let first = harness.bus.connect()
        let second = harness.bus.connect()
        for central in [first, second] {
            XCTAssertNotNil(
                harness.callNow(notifying, BlueZ.gattCharacteristicInterface, "StartNotify", from: central).value)
        }
        XCTAssertEqual(setup.program.calls("StartNotify").count, 1, "once for the first central session")
        first.close()
        harness.advance(by: 1)
        XCTAssertTrue(setup.program.calls("StopNotify").isEmpty, "a session is left")
        second.close()
        harness.advance(by: 1)
        XCTAssertEqual(setup.program.calls("StopNotify").map(\.path), [Program.notifying])
    }

    /// As BlueZ's example-gatt-server and example-advertisement run: the application in one program,
    /// the advertisement in another; one bluetoothd makes them one device.
    func testAnApplicationAndAnAdvertisementOfTwoProgramsAreOneDevice() throws {
        let harness = Harness(configuration: BlueZSimulation.Configuration(devices: []))
        let server = harness.bus.connect()
        let serverProgram = try PeripheralProgram(on: server)
        XCTAssertNotNil(
            harness.callNow(
                BlueZ.adapterPath, BlueZ.gattManagerInterface, "RegisterApplication",
                [.objectPath(Program.root), options()], from: server
            ).value)
        let advertiser = harness.bus.connect()
        let advertiserProgram = try PeripheralProgram(on: advertiser)
        XCTAssertNotNil(
            harness.callNow(
                BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "RegisterAdvertisement",
                [.objectPath(Program.advertisement), options()], from: advertiser
            ).value)
        let address = harness.simulation.virtualPeripheralAddress
        harness.startDiscovery(at: 0)
        let connect = harness.deviceCall(at: 200, address, "Connect")
        harness.advance(to: 700)
        XCTAssertNotNil(connect.value)
        let setup = VirtualRadioSetup(harness: harness, peripheral: server, program: serverProgram)
        let readable = try XCTUnwrap(setup.path(Program.readableUUID))
        let read = harness.callNow(readable, BlueZ.gattCharacteristicInterface, "ReadValue", [options()])
        XCTAssertEqual(read.value, [.bytes([0x2A])])
        XCTAssertEqual(serverProgram.calls("ReadValue").count, 1)
        XCTAssertTrue(advertiserProgram.calls("ReadValue").isEmpty)

        // The server leaving takes its services away; the advertiser still plays the device.
        harness.at(1000) { server.close() }
        harness.advance(to: 1100)
        XCTAssertNil(setup.path(Program.readableUUID))
        XCTAssertEqual(harness.property(setup.device, BlueZ.deviceInterface, "Connected"), .bool(true))
        // The advertiser leaving too: nobody plays it any more, the link is lost.
        harness.at(1200) { advertiser.close() }
        harness.advance(to: 1300)
        let disconnected = harness.signals.filter { $0.path == setup.device && $0.member == "Disconnected" }
        XCTAssertEqual(disconnected.map(\.time), [1200])
        XCTAssertEqual(disconnected.first?.message.body.first, .string(DisconnectReason.timeout.rawValue))
    }
}
