import BlueZSim
import CoreBluetooth
import RxBluetoothKit
import RxSwift
import RxTest
import XCTest

final class ConnectionTests: XCTestCase {
    func testConnectedWhileSubscribedAndDisconnectedOnDispose() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        let connection = bluez.record(
            { peripheral.establishConnection().map { $0.isConnected } }, at: 4_000, until: 6_000)
        let states = bluez.record({ peripheral.observeConnection() }, at: 3_500, until: 9_000)
        bluez.advance(to: 5_000)
        XCTAssertEqual(connection.events, [.next(4_300, true)])
        XCTAssertTrue(bluez.simulation.snapshot.device(Sim.heartRateMonitor)?.isConnected ?? false)
        bluez.advance(to: 9_000)
        XCTAssertEqual(states.events, [.next(3_500, false), .next(4_300, true), .next(6_000, false)])
        XCTAssertFalse(bluez.simulation.snapshot.device(Sim.heartRateMonitor)?.isConnected ?? true)
        XCTAssertEqual(peripheral.state, .disconnected)
    }

    func testDisposedWhileConnectingNeverConnects() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        let connection = bluez.record({ peripheral.establishConnection() }, at: 4_000, until: 4_100)
        bluez.advance(to: 6_000)
        XCTAssertEqual(connection.events, [])
        let device = bluez.simulation.snapshot.device(Sim.heartRateMonitor)
        XCTAssertFalse(device?.isConnected ?? true)
        XCTAssertFalse(device?.isConnecting ?? true)
        XCTAssertEqual(peripheral.state, .disconnected)
    }

    func testASecondConnectionOfOnePeripheralFails() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        let first = bluez.record({ peripheral.establishConnection() }, at: 4_000)
        let second = bluez.record({ bluez.manager.establishConnection(peripheral) }, at: 5_000)
        bluez.advance(to: 6_000)
        XCTAssertEqual(first.events.map(\.time), [4_300])
        XCTAssertEqual(second.events.map(\.time), [5_000])
        XCTAssertEqual(second.events.first?.bluetoothError, .peripheralIsAlreadyObservingConnection(peripheral))
    }

    func testAFailedConnectIsPeripheralConnectionFailedWithBlueZsReason() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        bluez.simulation.failNextConnect(address: Sim.heartRateMonitor)
        let connection = bluez.record({ peripheral.establishConnection() }, at: 4_000)
        bluez.advance(to: 5_000)
        XCTAssertEqual(connection.events.map(\.time), [4_300])
        guard case .peripheralConnectionFailed(let failed, let reason?)? = connection.events.first?.bluetoothError
        else {
            return XCTFail("\(connection.events)")
        }
        XCTAssertTrue(failed === peripheral)
        XCTAssertEqual((reason as? CBError)?.code, .operationCancelled, "\(reason)")
        XCTAssertEqual(peripheral.state, .disconnected)
    }

    func testLinkLossFailsTheConnectionWithPeripheralDisconnected() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        let connection = bluez.record({ peripheral.establishConnection() }, at: 4_000)
        let disconnects = bluez.record(
            { bluez.manager.observeDisconnect(for: peripheral).map { $0.1 != nil } }, at: 4_000)
        bluez.at(7_000) { bluez.simulation.dropLink(address: Sim.heartRateMonitor) }
        bluez.advance(to: 8_000)
        XCTAssertEqual(connection.events.map(\.time), [4_300, 7_000])
        guard case .peripheralDisconnected(_, let reason?)? = connection.events.last?.bluetoothError else {
            return XCTFail("\(connection.events)")
        }
        XCTAssertEqual((reason as? CBError)?.code, .peripheralDisconnected)
        XCTAssertEqual(disconnects.events, [.next(7_000, true)])
    }

    func testRadioOffFailsTheConnectionWithPoweredOff() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        let connection = bluez.record({ peripheral.establishConnection() }, at: 4_000)
        bluez.at(6_000) { bluez.simulation.setPowered(false) }
        bluez.advance(to: 7_000)
        XCTAssertEqual(connection.events.map(\.time), [4_300, 6_000])
        XCTAssertEqual(connection.events.last?.bluetoothError, .bluetoothPoweredOff)
    }

    func testAFlakyDeviceLosesItsLinkAfterTenSeconds() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.flaky)
        let connection = bluez.record({ peripheral.establishConnection() }, at: 4_000)
        bluez.advance(to: 20_000)
        XCTAssertEqual(connection.events.map(\.time), [4_300, 14_300])
        XCTAssertEqual(connection.events.last?.bluetoothError, .peripheralDisconnected(peripheral, nil))
    }
}

final class ConnectionLeakTests: XCTestCase {
    func testAFailedConnectLeavesNothingHoldingTheManager() throws {
        let bluez = SimulatedBlueZ()
        weak let manager = bluez.manager
        try {
            let peripheral = try bluez.discover(Sim.heartRateMonitor)
            bluez.simulation.failNextConnect(address: Sim.heartRateMonitor)
            let connection = bluez.record({ peripheral.establishConnection() }, at: 4_000)
            bluez.advance(to: 5_000)
            XCTAssertEqual(connection.events.count, 1)
        }()
        bluez.releaseManager()
        XCTAssertNil(manager)
        XCTAssertEqual(bluez.bus.matchRuleCount(of: bluez.client.uniqueName), 0)
    }
}
