import BlueZSim
import RxDBus
import XCTest

/// GattManager1 and LEAdvertisingManager1: bluetoothd's answers to registrations, good and bad.
final class RegistrationTests: XCTestCase {
    typealias Program = PeripheralProgram

    /// The programs stay on the bus until the test ends (their objects leave with them).
    private var programs: [PeripheralProgram] = []

    private func setUp(
        advertisement: [String: DBusValue] = [:], readableFlags: [String] = ["read"], withObjectManager: Bool = true
    ) throws -> (Harness, LocalBusConnection, PeripheralProgram) {
        let harness = Harness(configuration: BlueZSimulation.Configuration(devices: []))
        let peripheral = harness.bus.connect()
        let program = try PeripheralProgram(
            on: peripheral, advertisement: advertisement, readableFlags: readableFlags,
            withObjectManager: withObjectManager)
        programs.append(program)
        return (harness, peripheral, program)
    }

    private func registerApplication(_ harness: Harness, _ connection: LocalBusConnection, _ root: DBusObjectPath)
        -> Harness.Call
    {
        harness.callNow(
            BlueZ.adapterPath, BlueZ.gattManagerInterface, "RegisterApplication", [.objectPath(root), options()],
            from: connection)
    }

    private func registerAdvertisement(_ harness: Harness, _ connection: LocalBusConnection, _ path: DBusObjectPath)
        -> Harness.Call
    {
        harness.callNow(
            BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "RegisterAdvertisement",
            [.objectPath(path), options()], from: connection)
    }

    func testApplicationRegistrationErrorsAreBluetoothds() throws {
        let (harness, peripheral, _) = try setUp()
        XCTAssertNotNil(registerApplication(harness, peripheral, Program.root).value)
        XCTAssertEqual(
            registerApplication(harness, peripheral, Program.root).error,
            DBusError(name: BlueZErrorName.alreadyExists, message: "Already Exists"))
        // Another client may register the same root: registrations are by client and path.
        let other = harness.bus.connect()
        let foreign = registerApplication(harness, other, Program.root)
        XCTAssertEqual(foreign.error, DBusError(name: BlueZErrorName.failed, message: "No object received"))
        let unknown = harness.callNow(
            BlueZ.adapterPath, BlueZ.gattManagerInterface, "UnregisterApplication", [.objectPath("/nothing")],
            from: peripheral)
        XCTAssertEqual(unknown.error, DBusError(name: BlueZErrorName.doesNotExist, message: "Does Not Exist"))
        let unregister = harness.callNow(
            BlueZ.adapterPath, BlueZ.gattManagerInterface, "UnregisterApplication", [.objectPath(Program.root)],
            from: peripheral)
        XCTAssertNotNil(unregister.value)
        XCTAssertNotNil(registerApplication(harness, peripheral, Program.root).value, "registered again after")
    }

    func testMalformedApplicationsAreRefused() throws {
        let (badFlag, badFlagPeripheral, _) = try setUp(readableFlags: ["read", "shout"])
        XCTAssertEqual(
            registerApplication(badFlag, badFlagPeripheral, Program.root).error,
            DBusError(name: BlueZErrorName.failed, message: "No valid service object found"))
        let (noManager, noManagerPeripheral, _) = try setUp(withObjectManager: false)
        XCTAssertEqual(
            registerApplication(noManager, noManagerPeripheral, Program.root).error,
            DBusError(name: BlueZErrorName.failed, message: "No object received"))
        // The GAP service is BlueZ's own.
        let (harness, peripheral, _) = try setUp()
        let gap = DBusExportedObject(
            path: "/gap/service0",
            interfaces: [
                DBusInterface(
                    name: BlueZ.gattServiceInterface, properties: ["UUID": .string("1800"), "Primary": .bool(true)])
            ])
        let exported = try peripheral.export(gap)
        defer { exported.dispose() }
        let manager = peripheral.exportObjectManager(at: "/gap")
        defer { manager.dispose() }
        XCTAssertEqual(
            registerApplication(harness, peripheral, "/gap").error,
            DBusError(name: BlueZErrorName.failed, message: "Failed to create entry in database"))
    }

    func testAdvertisementRegistrationErrorsAndInstances() throws {
        let (harness, peripheral, _) = try setUp()
        XCTAssertNotNil(registerAdvertisement(harness, peripheral, Program.advertisement).value)
        XCTAssertEqual(
            registerAdvertisement(harness, peripheral, Program.advertisement).error,
            DBusError(name: BlueZErrorName.alreadyExists, message: "Already Exists"))
        // Three more programs take the other instances; a fifth advertisement is one too many.
        var others: [PeripheralProgram] = []
        for _ in 0..<3 {
            let connection = harness.bus.connect()
            others.append(try PeripheralProgram(on: connection))
            XCTAssertNotNil(registerAdvertisement(harness, connection, Program.advertisement).value)
        }
        XCTAssertEqual(
            harness.property(BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "SupportedInstances"), .byte(0))
        let fifth = harness.bus.connect()
        others.append(try PeripheralProgram(on: fifth))
        XCTAssertEqual(
            registerAdvertisement(harness, fifth, Program.advertisement).error,
            DBusError(name: BlueZErrorName.notPermitted, message: "Maximum advertisements reached"))
        let unknown = harness.callNow(
            BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "UnregisterAdvertisement", [.objectPath("/nothing")],
            from: peripheral)
        XCTAssertEqual(unknown.error?.name, BlueZErrorName.doesNotExist)
        let unregister = harness.callNow(
            BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "UnregisterAdvertisement",
            [.objectPath(Program.advertisement)], from: peripheral)
        XCTAssertNotNil(unregister.value)
        XCTAssertEqual(
            harness.property(BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "ActiveInstances"), .byte(3))
        XCTAssertTrue(
            (programs + others).allSatisfy { $0.calls("Release").isEmpty }, "UnregisterAdvertisement calls no Release")
    }

    func testMalformedAdvertisementsAreRefused() throws {
        let parseError = DBusError(name: BlueZErrorName.failed, message: "Failed to parse advertisement.")
        let cases: [[String: DBusValue]] = [
            ["Type": .string("beacon")],
            ["ServiceUUIDs": .strings(["not-a-uuid"])],
            ["LocalName": .uint16(1)],
            ["Includes": .strings(["local-name"])],  // with the program's LocalName
            ["Type": .string("broadcast"), "Discoverable": .bool(true)],
            ["TxPower": .int16(40)],
        ]
        for properties in cases {
            let (harness, peripheral, _) = try setUp(advertisement: properties)
            XCTAssertEqual(
                registerAdvertisement(harness, peripheral, Program.advertisement).error, parseError, "\(properties)")
            XCTAssertEqual(
                harness.property(BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "ActiveInstances"), .byte(0))
        }
    }

    func testReleaseOnTimeoutAndWhenBlueZStopsButNotOnPowerOff() throws {
        let (harness, peripheral, program) = try setUp(advertisement: ["Timeout": .uint16(5)])
        XCTAssertNotNil(registerAdvertisement(harness, peripheral, Program.advertisement).value)
        let address = harness.simulation.virtualPeripheralAddress
        harness.at(1000) { harness.simulation.setPowered(false) }
        harness.at(2000) { harness.simulation.setPowered(true) }
        harness.startDiscovery(at: 2500)
        harness.advance(to: 2700)
        XCTAssertTrue(program.calls("Release").isEmpty, "the power cycle keeps the advertisement")
        XCTAssertEqual(harness.simulation.snapshot.device(address)?.isOnBus, true)
        harness.advance(to: 4999)
        XCTAssertTrue(program.calls("Release").isEmpty)
        harness.advance(to: 5000)
        XCTAssertEqual(program.calls("Release").map(\.path), [Program.advertisement])
        XCTAssertEqual(
            harness.property(BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "ActiveInstances"), .byte(0))

        let (stopping, stoppingPeripheral, stoppingProgram) = try setUp()
        XCTAssertNotNil(registerAdvertisement(stopping, stoppingPeripheral, Program.advertisement).value)
        stopping.stop()
        XCTAssertEqual(stoppingProgram.calls("Release").map(\.path), [Program.advertisement])
    }
}
