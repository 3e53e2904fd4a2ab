import BlueZSim
import CoreBluetooth
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest
import XCTest

final class CentralManagerStateTests: XCTestCase {
    func testStateFollowsTheAdapterPowerInVirtualTime() throws {
        let bluez = SimulatedBlueZ()
        let states = bluez.record({ bluez.manager.observeStateWithInitialValue() })
        bluez.at(1_000) { bluez.simulation.setPowered(false) }
        bluez.at(2_000) { bluez.simulation.setPowered(true) }
        bluez.advance(to: 3_000)
        XCTAssertEqual(
            states.events,
            [.next(0, .unknown), .next(0, .poweredOn), .next(1_000, .poweredOff), .next(2_000, .poweredOn)])
        XCTAssertEqual(bluez.manager.state, .poweredOn)
        XCTAssertEqual(bluez.manager.manager.state, .poweredOn)
    }

    func testNoBlueZOnTheBusIsUnsupported() throws {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
        let bus = LocalBus(scheduler: scheduler)
        let manager = CentralManager(bus: bus.connect(), scheduler: scheduler)
        let scan = scheduler.createObserver(ScannedPeripheral.self)
        scheduler.scheduleAt(10) { _ = manager.scanForPeripherals(withServices: nil).subscribe(scan) }
        scheduler.advanceTo(100)
        XCTAssertEqual(manager.state, .unsupported)
        XCTAssertEqual(scan.events.first?.bluetoothError, .bluetoothUnsupported)
        XCTAssertEqual(scan.events.first?.time, 10)
    }

    func testTheManagersMatchRulesGoWithIt() throws {
        let bluez = SimulatedBlueZ()
        bluez.advance(to: 10)
        // The object tree's two rules (ObjectManager's signals, PropertiesChanged below /) and BlueZ's
        // name owner; scans, connections and notifications add none: they are filters of the tree.
        XCTAssertEqual(bluez.bus.matchRuleCount(of: bluez.client.uniqueName), 3)
        // Nothing of the peripheral outlives the recording: a peripheral holds its manager.
        let values: TestableObserver<Data> = try {
            let peripheral = try bluez.discover(Sim.heartRateMonitor, at: 10)
            let notifications = peripheral.establishConnection()
                .flatMap { $0.discoverServices([CBUUID(string: "180D")]) }
                .flatMap { $0[0].discoverCharacteristics([CBUUID(string: "2A37")]) }
                .flatMap { $0[0].observeValueUpdateAndSetNotification() }
                .map { $0.value ?? Data() }
            return bluez.record({ notifications }, at: 4_000, until: 8_000)
        }()
        bluez.advance(to: 6_000)
        XCTAssertEqual(bluez.bus.matchRuleCount(of: bluez.client.uniqueName), 3)
        bluez.advance(to: 9_000)
        XCTAssertFalse(values.events.isEmpty)
        XCTAssertEqual(bluez.bus.matchRuleCount(of: bluez.client.uniqueName), 3)
        bluez.releaseManager()
        XCTAssertEqual(bluez.bus.matchRuleCount(of: bluez.client.uniqueName), 0)
    }
}
