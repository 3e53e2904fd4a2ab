import BlueZSim
import CoreBluetooth
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest
import XCTest

/// BlueZ simulated on an in-process bus, the manager a client of it, and every timer and delivery
/// on one test scheduler: one tick is one millisecond, and work scheduled "now" runs now, so a
/// connection made at 1 000 with the simulation's 300 ms link-up and 200 ms service resolution is
/// up at 1 300 and resolved at 1 500.
final class SimulatedBlueZ {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    let bus: LocalBus
    let simulation: BlueZSimulation
    let simulationConnection: LocalBusConnection
    let client: LocalBusConnection
    private(set) var manager: CentralManager!
    private let running: Disposable

    init(configuration: BlueZSimulation.Configuration = .standard) {
        bus = LocalBus(scheduler: scheduler)
        simulation = BlueZSimulation(configuration: configuration, scheduler: scheduler)
        simulationConnection = bus.connect()
        running = simulation.run(on: simulationConnection)
        client = bus.connect()
        manager = CentralManager(bus: client, scheduler: scheduler)
    }

    deinit { running.dispose() }

    /// Lets the manager go (and with it its subscriptions to BlueZ).
    func releaseManager() { manager = nil }

    /// Runs `action` at virtual time `time`.
    func at(_ time: TestTime, _ action: @escaping () -> Void) { scheduler.scheduleAt(time, action: action) }

    func advance(to time: TestTime) { scheduler.advanceTo(time) }

    /// Subscribes at `subscribe`, disposes at `dispose`, recording every event with its time.
    func record<T>(_ make: @escaping () -> Observable<T>, at subscribe: TestTime = 0, until dispose: TestTime? = nil)
        -> TestableObserver<T>
    {
        let observer = scheduler.createObserver(T.self)
        var subscription: Disposable?
        at(subscribe) { subscription = make().subscribe(observer) }
        if let dispose { at(dispose) { subscription?.dispose() } }
        return observer
    }

    /// The peripheral of a simulated device, once the manager has its object (after a scan saw it).
    func peripheral(_ address: String) -> Peripheral? {
        manager.retrievePeripherals(withIdentifiers: [identifier(of: address)]).first
    }

    /// The identifier RxBluetoothKit gives a device of this simulation's adapter.
    func identifier(of address: String) -> UUID {
        let adapter = simulation.configuration.adapter.address.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        let device = address.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        let random: UInt8 =
            simulation.configuration.devices.first { $0.address == address }?.addressType == .random ? 1 : 0
        return UUID(
            uuid: (
                adapter[0], adapter[1], adapter[2], adapter[3], adapter[4], adapter[5], 0x80 | random, 0, 0x80, 0,
                device[0], device[1], device[2], device[3], device[4], device[5]
            ))
    }

    /// Scans from `time` until the device is seen, then stops: its peripheral.
    func discover(_ address: String, at time: TestTime = 10) throws -> Peripheral {
        let scan = record(
            { [unowned self] in
                self.manager.scanForPeripherals(withServices: nil)
                    .filter { $0.peripheral.peripheral.address == address }.take(1)
            }, at: time)
        advance(to: time + 3_000)
        return try XCTUnwrap(
            scan.events.first?.value.element?.peripheral, "the scan did not see \(address): \(scan.events)")
    }
}

/// The simulation's standard devices' addresses and UUIDs.
enum Sim {
    static let heartRateMonitor = StandardDevices.Address.heartRateMonitor
    static let light = StandardDevices.Address.light
    static let thermometer = StandardDevices.Address.thermometer
    static let flaky = StandardDevices.Address.flakySensor
}

extension Recorded where Value: EventConvertible {
    /// The error of a recorded error event, as a BluetoothError.
    var bluetoothError: BluetoothError? { value.event.error as? BluetoothError }
}
