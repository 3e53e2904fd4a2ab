import BlueZSim
import Foundation
import RxBlocking
import RxDBus
import RxSwift
import XCTest

/// The virtual radio on a real dbus-daemon: the simulation, a peripheral program and a central on
/// three connections of their own, and Debian's bluetoothctl as another central.
final class VirtualRadioRealBusTests: XCTestCase {
    private var bus: PrivateBus?
    private var connections: [DBusConnection] = []
    private var running: Disposable?

    override func setUpWithError() throws {
        do {
            bus = try PrivateBus()
        } catch {
            throw XCTSkip("no private bus: \(error)")
        }
        let server = try connect()
        let simulation = BlueZSimulation(
            configuration: BlueZSimulation.Configuration(devices: []),
            scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "bluez-sim-radio-tests"))
        running = simulation.run(on: server)
        try waitUntil("org.bluez is on the bus") {
            try self.call(
                server, DBusStandard.busPath, DBusStandard.busName, "NameHasOwner", [.string(BlueZ.busName)],
                destination: DBusStandard.busName) == [.bool(true)]
        }
    }

    override func tearDown() {
        running?.dispose()
        for connection in connections { connection.close() }
        bus?.stop()
    }

    private func connect() throws -> DBusConnection {
        let connection = try DBusConnection(address: bus?.address ?? "")
        connections.append(connection)
        return connection
    }

    @discardableResult
    private func call(
        _ connection: DBusConnection, _ path: DBusObjectPath, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = [], destination: String = BlueZ.busName
    ) throws -> [DBusValue] {
        try connection.call(
            destination: destination, path: path, interface: interface, member: member, arguments: arguments
        ).asObservable().toBlocking(timeout: 5).single()
    }

    private func waitUntil(_ what: String, timeout: TimeInterval = 5, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("timed out waiting until \(what)")
    }

    /// A program registers its application and advertisement on a connection of its own.
    private func peripheral() throws -> (DBusConnection, PeripheralProgram) {
        let connection = try connect()
        let program = try PeripheralProgram(on: connection)
        try call(
            connection, BlueZ.adapterPath, BlueZ.gattManagerInterface, "RegisterApplication",
            [.objectPath(PeripheralProgram.root), .vardict([:])])
        try call(
            connection, BlueZ.adapterPath, BlueZ.advertisingManagerInterface, "RegisterAdvertisement",
            [.objectPath(PeripheralProgram.advertisement), .vardict([:])])
        return (connection, program)
    }

    private func objects(_ connection: DBusConnection) throws -> [DBusObjectPath: [String: [String: DBusValue]]] {
        let reply = try call(connection, BlueZ.rootPath, DBusStandard.objectManager, "GetManagedObjects")
        var objects: [DBusObjectPath: [String: [String: DBusValue]]] = [:]
        for entry in reply.first?.dictionaryEntries ?? [] {
            guard let path = entry.key.objectPath else { continue }
            objects[path] = Harness.interfaces(entry.value)
        }
        return objects
    }

    func testAProgramsPeripheralIsDiscoveredConnectedReadWrittenAndNotifiedByAnother() throws {
        let (peripheralConnection, program) = try peripheral()
        let address = BlueZSimulation.virtualPeripheralAddress(adapter: BlueZSimulation.AdapterProfile().address)
        let device = BlueZ.devicePath(address)
        let central = try connect()
        try call(central, BlueZ.adapterPath, BlueZ.adapterInterface, "StartDiscovery")
        try waitUntil("the device is found") { try objects(central)[device] != nil }
        XCTAssertEqual(try objects(central)[device]?[BlueZ.deviceInterface]?["Name"], .string("Peri Sim"))
        try call(central, device, BlueZ.deviceInterface, "Connect")
        try waitUntil("services are resolved") {
            try objects(central)[device]?[BlueZ.deviceInterface]?["ServicesResolved"] == .bool(true)
        }
        func characteristic(_ uuid: String) throws -> DBusObjectPath {
            try XCTUnwrap(
                objects(central).first {
                    $0.key.isWithin(device) && $0.value[BlueZ.gattCharacteristicInterface]?["UUID"] == .string(uuid)
                }?.key)
        }
        let interface = BlueZ.gattCharacteristicInterface
        let read = try call(
            central, characteristic(PeripheralProgram.readableUUID), interface, "ReadValue", [.vardict([:])])
        XCTAssertEqual(read, [.bytes([0x2A])])
        try call(
            central, characteristic(PeripheralProgram.writableUUID), interface, "WriteValue",
            [.bytes([7]), .vardict([:])])
        XCTAssertEqual(program.calls("WriteValue").first?.arguments.first, .bytes([7]))

        let notifying = try characteristic(PeripheralProgram.notifyingUUID)
        let values = ReplaySubject<DBusValue>.createUnbounded()
        let watch = central.signals(
            matching: DBusMatchRule(
                sender: BlueZ.busName, path: notifying, interface: DBusStandard.properties, member: "PropertiesChanged")
        ).compactMap { $0.body.dropFirst().first?.stringKeyed?["Value"]?.unwrapped }.subscribe(values)
        defer { watch.dispose() }
        try call(central, notifying, interface, "StartNotify")
        try waitUntil("the program is asked to notify") { !program.calls("StartNotify").isEmpty }
        program.notify([9])
        XCTAssertEqual(try values.take(1).toBlocking(timeout: 5).single(), .bytes([9]))

        peripheralConnection.close()
        try waitUntil("the central loses the link") {
            try objects(central)[device]?[BlueZ.deviceInterface]?["Connected"] == .bool(false)
        }
        XCTAssertNil(try objects(central)[notifying])
    }

    func testBluetoothctlSeesTheAdvertisementAsADevice() throws {
        let tool = "/usr/bin/bluetoothctl"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw XCTSkip("\(tool) is not installed (Debian: apt-get install bluez)")
        }
        let (_, program) = try peripheral()
        let address = BlueZSimulation.virtualPeripheralAddress(adapter: BlueZSimulation.AdapterProfile().address)
        try withExtendedLifetime(program) {
            let scan = try run(tool, ["--timeout", "3", "scan", "on"])
            XCTAssertTrue(scan.contains("[NEW] Device \(address) Peri Sim"), scan)
            let devices = try run(tool, ["--timeout", "3", "devices"])
            XCTAssertTrue(devices.contains("Device \(address) Peri Sim"), devices)
        }
    }

    /// Runs a tool with the private bus as the system bus; its standard output.
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus?.address
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "\u{1B}\\[[0-9;]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "[\u{01}\u{02}]", with: "", options: .regularExpression)
    }
}
