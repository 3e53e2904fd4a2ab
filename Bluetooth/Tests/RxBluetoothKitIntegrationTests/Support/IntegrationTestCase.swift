import CoreBluetooth
import Foundation
import RxBlocking
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// A test with a private bus of its own (nothing reaches the machine's buses) and the connection a
/// `CentralManager` uses on it. When the test ends, it checks that the manager made by
/// ``makeManager()`` (or given to ``track(_:)``) was released along with the test's subscriptions,
/// and that the central's connection holds exactly as many match rules as it did before the manager
/// existed.
class IntegrationTestCase: XCTestCase {
    private(set) var bus: PrivateBus!
    /// The central's connection: the one whose match rules are counted.
    private(set) var centralConnection: DBusConnection!
    /// Where the manager delivers its events.
    private(set) var centralScheduler: SerialDispatchQueueScheduler!
    /// Subscriptions that last until the test ends.
    var bag = DisposeBag()
    /// Run when the test ends, after the checks, latest first (the BlueZ implementation's teardown).
    private var cleanups: [() -> Void] = []
    private var ruleBaseline = 0
    private weak var trackedManager: CentralManager?
    private var madeManager = false

    override func setUpWithError() throws {
        try super.setUpWithError()
        do {
            bus = try PrivateBus()
        } catch {
            throw XCTSkip("no private bus: \(error)")
        }
        centralConnection = try DBusConnection(address: bus.address)
        centralScheduler = SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "central")
        ruleBaseline = try centralMatchRules()
    }

    override func tearDownWithError() throws {
        bag = DisposeBag()
        if madeManager {
            // A round trip on the central's connection lets its thread go past the last jobs it ran
            // (which RxDBus keeps until the thread wakes again: see SimulationReleaseTests), and
            // deliveries already queued for the manager hold it until they have run.
            try roundTrip(centralConnection)
            try drain(centralScheduler)
            XCTAssertNil(trackedManager, "the CentralManager outlived the test and its subscriptions")
            XCTAssertEqual(
                try centralMatchRules(), ruleBaseline,
                "the central's connection holds other match rules than before the CentralManager was made")
        }
        for cleanup in cleanups.reversed() { cleanup() }
        cleanups = []
        centralConnection?.close()
        bus?.stop()
        try super.tearDownWithError()
    }

    /// A manager on the central's connection, adapter `hci0`, delivering on ``centralScheduler``.
    func makeManager() -> CentralManager {
        track(CentralManager(bus: centralConnection, scheduler: centralScheduler))
    }

    /// Checks, when the test ends, that `manager` was released and its match rules with it.
    @discardableResult
    func track(_ manager: CentralManager) -> CentralManager {
        trackedManager = manager
        madeManager = true
        return manager
    }

    /// Runs `cleanup` when the test ends, after the match-rule check.
    func addCleanup(_ cleanup: @escaping () -> Void) { cleanups.append(cleanup) }

    /// How many match rules the central's connection holds on the bus. The question goes out on that
    /// connection after everything it was asked to send before (`RemoveMatch` included), and the bus
    /// answers in order, so the answer counts them all.
    func centralMatchRules() throws -> Int {
        try value(of: centralConnection.matchRuleCount(of: centralConnection.uniqueName))
    }

    /// The manager once it knows BlueZ's state (`observeStateWithInitialValue` starts with `unknown`
    /// until BlueZ has answered).
    func knownState(of manager: CentralManager, timeout: Double = 5) throws -> BluetoothState {
        try XCTUnwrap(
            manager.observeStateWithInitialValue().filter { $0 != .unknown }.toBlocking(timeout: timeout).first())
    }

    /// Connects to `peripheral` and waits until the connection is up; it lasts until the returned
    /// recording is disposed, or the test ends.
    func connect(_ peripheral: Peripheral) throws -> Recording<Peripheral> {
        let connection = Recording(peripheral.establishConnection(), disposedBy: bag)
        XCTAssertEqual(try connection.first(), peripheral)
        return connection
    }

    /// The characteristic `uuid` of the service `service`, discovered through RxBluetoothKit.
    func characteristic(_ uuid: String, in service: String, of peripheral: Peripheral) throws -> Characteristic {
        let services = try value(of: peripheral.discoverServices([CBUUID(string: service)]))
        let found = try XCTUnwrap(services.first)
        let characteristics = try value(of: found.discoverCharacteristics([CBUUID(string: uuid)]))
        return try XCTUnwrap(characteristics.first)
    }
}
