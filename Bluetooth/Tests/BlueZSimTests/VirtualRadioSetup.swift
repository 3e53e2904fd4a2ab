import BlueZSim
import RxDBus
import XCTest

/// A peripheral program on one connection of a ``Harness``'s bus, registered with the simulation;
/// the harness's client is the central.
struct VirtualRadioSetup {
    typealias Program = PeripheralProgram

    let harness: Harness
    let peripheral: LocalBusConnection
    let program: PeripheralProgram
    var address: String { harness.simulation.virtualPeripheralAddress }
    var device: DBusObjectPath { BlueZ.devicePath(address) }

    /// The program registers its application and advertisement at 0.
    static func registered(
        advertisement: [String: DBusValue] = [:], file: StaticString = #filePath, line: UInt = #line
    ) throws -> VirtualRadioSetup {
        let harness = Harness(configuration: BlueZSimulation.Configuration(devices: []))
        let peripheral = harness.bus.connect()
        let program = try PeripheralProgram(on: peripheral, advertisement: advertisement)
        let application = harness.callNow(
            BlueZ.adapterPath, BlueZ.gattManagerInterface, "RegisterApplication",
            [.objectPath(Program.root), options()], from: peripheral)
        XCTAssertNotNil(application.value, "\(String(describing: application.error))", file: file, line: line)
        let advertising = harness.callNow(
            BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "RegisterAdvertisement",
            [.objectPath(Program.advertisement), options()], from: peripheral)
        XCTAssertNotNil(advertising.value, "\(String(describing: advertising.error))", file: file, line: line)
        return VirtualRadioSetup(harness: harness, peripheral: peripheral, program: program)
    }

    /// Registered, discovered from 0 and connected at 200 (services resolved at 700).
    static func connected(file: StaticString = #filePath, line: UInt = #line) throws -> VirtualRadioSetup {
        let setup = try registered(file: file, line: line)
        setup.harness.startDiscovery(at: 0)
        setup.harness.advance(to: 200)
        let connect = setup.harness.deviceCall(at: 200, setup.address, "Connect")
        setup.harness.advance(to: 700)
        XCTAssertNotNil(connect.value, "\(String(describing: connect.error))", file: file, line: line)
        return setup
    }

    /// The central-side object of the attribute with `uuid` (the first).
    func path(_ uuid: String, interface: String = BlueZ.gattCharacteristicInterface) -> DBusObjectPath? {
        harness.managedObjects().filter {
            $0.key.isWithin(device) && $0.value[interface]?["UUID"] == .string(BluetoothUUID.canonical(uuid))
        }.keys.sorted().first
    }
}
