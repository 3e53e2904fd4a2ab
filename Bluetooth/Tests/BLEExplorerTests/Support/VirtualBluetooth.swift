import BlueZSim
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest

/// The simulated BlueZ and a manager on an in-process bus, all in virtual time: one tick is a
/// millisecond, so the simulation's one-second advertisements and notifications are 1000 ticks apart.
final class VirtualBluetooth {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    let bus: LocalBus
    let simulation: BlueZSimulation
    let manager: CentralManager
    private let connections: [LocalBusConnection]
    private let run: Disposable

    init(configuration: BlueZSimulation.Configuration = .standard) {
        bus = LocalBus(scheduler: scheduler)
        let simulationConnection = bus.connect()
        let managerConnection = bus.connect()
        connections = [simulationConnection, managerConnection]
        simulation = BlueZSimulation(configuration: configuration, scheduler: scheduler)
        run = simulation.run(on: simulationConnection)
        manager = CentralManager(bus: managerConnection, scheduler: scheduler)
    }

    deinit { run.dispose() }

    /// Virtual time in ticks for `seconds`.
    static func ticks(_ seconds: Double) -> TestTime { TestTime((seconds * 1000).rounded()) }

    /// Runs the scheduler up to `seconds`.
    func advance(to seconds: Double) { scheduler.advanceTo(Self.ticks(seconds)) }

    /// Runs `action` at `seconds`.
    func at(_ seconds: Double, _ action: @escaping () -> Void) {
        scheduler.scheduleAt(Self.ticks(seconds), action: action)
    }

    /// Runs what is due now: Drivers and Signals deliver on the scheduler, so what an input causes is
    /// seen only after this.
    func settle() { scheduler.advanceTo(scheduler.clock) }

    var now: Double { Double(scheduler.clock) / 1000 }

    /// The peripheral at `address`, found by a scan of half a second.
    func peripheral(_ address: String) -> Peripheral? {
        // The manager learns the radio is on once BlueZ has answered.
        advance(to: now + 0.05)
        var found: Peripheral?
        let scan = manager.scanForPeripherals(withServices: nil).subscribe(onNext: { scanned in
            if scanned.peripheral.peripheral.address == address { found = scanned.peripheral }
        })
        advance(to: now + 0.5)
        scan.dispose()
        advance(to: now + 0.01)
        return found
    }
}
