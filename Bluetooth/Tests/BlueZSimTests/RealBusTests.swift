import BlueZSim
import Foundation
import RxBlocking
import RxDBus
import RxSwift
import XCTest

/// The simulation on a real dbus-daemon, checked by clients that know nothing of it: Debian's
/// bluetoothctl (BlueZ's own client) and systemd's busctl.
final class RealBusTests: XCTestCase {
    private var bus: PrivateBus?
    private var connection: DBusConnection?
    private var running: Disposable?
    private var simulation: BlueZSimulation?

    override func setUpWithError() throws {
        for tool in ["/usr/bin/bluetoothctl", "/usr/bin/busctl"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (Debian: apt-get install bluez systemd)")
        }
        let bus: PrivateBus
        do {
            bus = try PrivateBus()
        } catch {
            throw XCTSkip("no private bus: \(error)")
        }
        self.bus = bus
        let connection = try DBusConnection(address: bus.address)
        self.connection = connection
        let simulation = BlueZSimulation(
            scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "bluez-sim-tests"))
        self.simulation = simulation
        running = simulation.run(on: connection)
        // Wait until the name is on the bus.
        let probe = try DBusConnection(address: bus.address)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let owned = try probe.call(
                destination: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
                member: "NameHasOwner", arguments: [.string(BlueZ.busName)]
            ).asObservable().toBlocking(timeout: 5).single()
            if owned == [.bool(true)] { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        probe.close()
    }

    override func tearDown() {
        running?.dispose()
        connection?.close()
        bus?.stop()
    }

    /// Runs a tool with the bus as the system bus, feeding it `lines` half a second apart (an
    /// interactive client needs time to act on each); its standard output without colours.
    private func run(_ tool: String, _ arguments: [String], lines: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus?.address
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        let writer = stdin.fileHandleForWriting
        Thread.detachNewThread {
            for line in lines {
                Thread.sleep(forTimeInterval: 0.5)
                writer.write(Data((line + "\n").utf8))
            }
            if !lines.isEmpty { Thread.sleep(forTimeInterval: 0.5) }
            try? writer.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // bluetoothctl redraws its prompt: what a line finally shows comes after its last carriage
        // return; colours are escape sequences wrapped in readline's \u{01} … \u{02} markers.
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                String(line.split(separator: "\r", omittingEmptySubsequences: false).last ?? "")
                    .replacingOccurrences(of: "\u{1B}\\[[0-9;]*[A-Za-z]", with: "", options: .regularExpression)
                    .replacingOccurrences(of: "[\u{01}\u{02}]", with: "", options: .regularExpression)
            }
            .joined(separator: "\n")
    }

    private func bluetoothctl(_ arguments: String...) throws -> String {
        try run("/usr/bin/bluetoothctl", ["--timeout", "3"] + arguments)
    }

    func testBluetoothctlSeesTheAdapter() throws {
        let list = try bluetoothctl("list")
        XCTAssertTrue(list.contains("Controller 00:1A:7D:DA:71:0A bluez-sim [default]"), list)
        let show = try bluetoothctl("show")
        for line in ["Name: bluez-sim", "Powered: yes", "Discovering: no", "Roles: central", "Pairable: yes"] {
            XCTAssertTrue(show.contains(line), "\(line) missing from:\n\(show)")
        }
        XCTAssertTrue(show.contains("Generic Access Profile    (00001800-0000-1000-8000-00805f9b34fb)"), show)
    }

    func testBluetoothctlScansConnectsReadsAndWrites() throws {
        let scan = try bluetoothctl("scan", "on")
        XCTAssertTrue(scan.contains("Discovering: yes"), scan)
        for device in StandardDevices.all {
            XCTAssertTrue(
                scan.contains("[NEW] Device \(device.address) \(device.name ?? "")"), "\(device.address):\n\(scan)")
        }
        XCTAssertTrue(scan.contains("RSSI: "), scan)
        let devices = try bluetoothctl("devices")
        XCTAssertEqual(devices.split(separator: "\n").filter { $0.hasPrefix("Device ") }.count, 7, devices)
        let info = try bluetoothctl("info", StandardDevices.Address.heartRateMonitor)
        for line in ["(random)", "Name: HRM Sim", "Appearance: 0x0341", "Connected: no", "Heart Rate"] {
            XCTAssertTrue(info.contains(line), "\(line) missing from:\n\(info)")
        }

        let light = StandardDevices.Address.light
        let brightness = try XCTUnwrap(
            simulation?.characteristicPath(address: light, uuid: StandardDevices.UUID.lightBrightness))
        let connect = try bluetoothctl("connect", light)
        XCTAssertTrue(connect.contains("Connection successful"), connect)
        XCTAssertTrue(connect.contains("ServicesResolved: yes") || connect.contains("Vendor specific"), connect)
        let attributes = try bluetoothctl("gatt.list-attributes", light)
        XCTAssertTrue(attributes.contains(brightness.rawValue), attributes)
        XCTAssertTrue(attributes.contains("Characteristic User Description"), attributes)

        let session = try run(
            "/usr/bin/bluetoothctl", [],
            lines: [
                "gatt.select-attribute \(brightness.rawValue)", "gatt.read", "gatt.write 0x2a", "gatt.read", "quit",
            ])
        let reads = session.split(separator: "\n").filter { $0.hasPrefix("  ") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        XCTAssertTrue(reads.contains { $0.hasPrefix("80 ") }, session)
        XCTAssertTrue(reads.contains { $0.hasPrefix("2a ") }, session)
        let disconnect = try bluetoothctl("disconnect", light)
        XCTAssertTrue(disconnect.contains("org.bluez.Device1.Disconnected"), disconnect)
        XCTAssertTrue(disconnect.contains("Connected: no"), disconnect)
    }

    func testBusctlSeesBlueZsObjectTree() throws {
        // Discovery by a client of the test's own, so that the devices have their RSSI while busctl looks.
        let client = try DBusConnection(address: bus?.address ?? "")
        defer { client.close() }
        _ = try client.call(
            destination: BlueZ.busName, path: BlueZ.adapterPath, interface: BlueZ.adapterInterface,
            member: "StartDiscovery"
        ).asObservable().toBlocking(timeout: 5).single()
        Thread.sleep(forTimeInterval: 0.5)
        let tree = try run("/usr/bin/busctl", ["--address=\(bus?.address ?? "")", "tree", BlueZ.busName])
        for path in ["/org/bluez", "/org/bluez/hci0", "/org/bluez/hci0/dev_C4_7C_8D_6A_10_01"] {
            XCTAssertTrue(tree.contains(path), "\(path) missing from:\n\(tree)")
        }
        let adapter = try run(
            "/usr/bin/busctl", ["--address=\(bus?.address ?? "")", "introspect", BlueZ.busName, "/org/bluez/hci0"])
        for line in [
            ".StartDiscovery", ".SetDiscoveryFilter", "a{sv}", ".RemoveDevice", ".Powered", "org.bluez.GattManager1",
            "org.bluez.LEAdvertisingManager1",
        ] {
            XCTAssertTrue(adapter.contains(line), "\(line) missing from:\n\(adapter)")
        }
        let device = try run(
            "/usr/bin/busctl",
            ["--address=\(bus?.address ?? "")", "introspect", BlueZ.busName, "/org/bluez/hci0/dev_C4_7C_8D_6A_10_01"])
        XCTAssertNotNil(device.range(of: #"\.RSSI +property +n "#, options: .regularExpression), device)
        XCTAssertNotNil(
            device.range(of: #"\.ManufacturerData +property +a\{qv\} "#, options: .regularExpression), device)
        XCTAssertNotNil(device.range(of: #"\.Disconnected +signal +ss "#, options: .regularExpression), device)
        XCTAssertNotNil(device.range(of: #"\.Alias +property +s .*writable"#, options: .regularExpression), device)
    }
}
