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
}
