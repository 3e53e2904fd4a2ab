import BlueZSim
import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import Synchronization
import XCTest

/// Two programs on one private bus: `ble-peripheral` (RxBluetoothKit's PeripheralManager, in a child
/// process) and the test's CentralManager, with the simulated BlueZ (on a connection of the test's
/// own) as the radio between them. The central scans, connects, discovers, reads, writes with and
/// without response, and takes ten seconds of notifications; then the peripheral program is killed
/// mid-notification, and the central sees the link go. When both have ended, nothing of either is
/// registered, exported or matched on the bus.
final class TwoProcessPeripheralTests: SimulationTestCase {
    // The UUIDs and the name `ble-peripheral` publishes (Sources/PeripheralDemo/CounterPeripheral.swift).
    private let service = "A0B40001-926D-4D61-98DF-8C5C62EE53B3"
    private let readable = "A0B40002-926D-4D61-98DF-8C5C62EE53B3"
    private let writable = "A0B40003-926D-4D61-98DF-8C5C62EE53B3"
    private let counter = "A0B40004-926D-4D61-98DF-8C5C62EE53B3"

    func testACentralUsesAPeripheralProgramUntilItIsKilled() throws {
        let program = try ChildProgram.path(of: "ble-peripheral")
        try startSimulation()
        let child = try ChildProgram(program, arguments: ["--bus", bus.address, "--period-ms", "100"])
        addCleanup { child.stop() }
        try child.waitForLine("ready")
        // The program registered its application and its advertisement from its own connection.
        let registered = simulation.registrations
        let client = try XCTUnwrap(registered.applications.first?.client)
        XCTAssertNotEqual(client, centralConnection.uniqueName)
        XCTAssertEqual(registered.applications.map(\.client), [client])
        XCTAssertEqual(registered.applications.first?.details, [service.lowercased()])
        XCTAssertEqual(registered.advertisements.map(\.client), [client])

        try {
            let central = try poweredOnManager()
            let peripheral = try scanForPeripheral(named: "RxCounter", services: [CBUUID(string: service)], of: central)
            let link = try connect(peripheral)
            let remoteReadable = try characteristic(readable, in: service, of: peripheral)
            let remoteWritable = try characteristic(writable, in: service, of: peripheral)
            let remoteCounter = try characteristic(counter, in: service, of: peripheral)

            // Reads are answered by the program (observeDidReceiveRead and respond): it counts them.
            XCTAssertEqual(try value(of: remoteReadable.readValue()).value, Data("read 1".utf8))
            XCTAssertEqual(try value(of: remoteReadable.readValue()).value, Data("read 2".utf8))
            _ = try value(of: remoteWritable.writeValue(Data([0x01, 0x02, 0x03]), type: .withResponse))
            try child.waitForLine("write 010203")
            _ = try value(of: remoteWritable.writeValue(Data([0xCA, 0xFE]), type: .withoutResponse))
            try child.waitForLine("write cafe")

            // Ten seconds of notifications: the counter from 1 on, each value once, in order.
            let received = Mutex<[UInt32]>([])
            let notifications = Recording(
                remoteCounter.observeValueUpdateAndSetNotification().map { characteristic in
                    let bytes = [UInt8](characteristic.value ?? Data())
                    XCTAssertEqual(bytes.count, 4)
                    let value = bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                    received.withLock { $0.append(value) }
                    return value
                }, disposedBy: bag)
            XCTAssertEqual(try notifications.first(), 1)
            Thread.sleep(forTimeInterval: 10)
            let beforeKill = received.withLock { $0 }
            XCTAssertGreaterThanOrEqual(beforeKill.count, 90, "too few notifications in 10 s at 100 ms")

            // The peripheral program dies mid-notification: BlueZ drops its registrations, and the
            // central's link to it, its notifications and its connection, fail.
            let status = child.kill(SIGKILL)
            XCTAssertTrue(status & 0x7F == SIGKILL, "wait status \(status)")
            for error in [try notifications.error(), try link.error()] {
                guard case .peripheralDisconnected(let lost, let reason)? = error as? BluetoothError else {
                    return XCTFail("expected peripheralDisconnected, got \(String(describing: error))")
                }
                XCTAssertEqual(lost, peripheral)
                XCTAssertEqual((reason as? CBError)?.code, .peripheralDisconnected)
            }
            let values = received.withLock { $0 }
            XCTAssertEqual(values, Array(1...UInt32(values.count)), "a value was skipped, repeated or reordered")
            XCTAssertFalse(peripheral.isConnected)
        }()

        // Nothing of the program stays: the simulated BlueZ has forgotten its application and its
        // advertisement, and its connection has left the bus (with everything it exported).
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let registrations = simulation.registrations
            if registrations.applications.isEmpty && registrations.advertisements.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertTrue(simulation.registrations.applications.isEmpty, "\(simulation.registrations)")
        XCTAssertTrue(simulation.registrations.advertisements.isEmpty, "\(simulation.registrations)")
        let hasOwner = try value(
            of: observer.call(
                destination: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
                member: "NameHasOwner", arguments: [.string(client)]))
        XCTAssertEqual(hasOwner.first?.bool, false, "the peripheral program's connection is still on the bus")
        XCTAssertThrowsError(
            try value(
                of: observer.call(
                    destination: DBusStandard.busName, path: DBusStandard.busPath, interface: DBusStandard.busName,
                    member: "GetNameOwner", arguments: [.string(client)])))
        // The central's manager is released when the test ends, and its match rules are checked then
        // (IntegrationTestCase).
    }
}
