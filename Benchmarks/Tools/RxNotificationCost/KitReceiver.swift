import BlueZSim
import CoreBluetooth
import Dispatch
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift

/// Receiver (c): RxBluetoothKit's central role, as an application uses it. The sender is the simulated
/// BlueZ (one device, one characteristic notifying a counter); the manager scans for the device,
/// connects, discovers the characteristic and subscribes with `observeValueUpdateAndSetNotification`.
/// Delivered on a serial dispatch queue, as `CentralManager(queue:)` does.
enum KitReceiver {
    static func run(address: String, count: Int, simulator: [String]) throws -> Int32 {
        // BlueZ first: the manager finds it on the bus, or follows it there.
        let child = Child.spawn(simulator)
        let connection = try DBusConnection(address: address)
        let manager = CentralManager(
            bus: connection, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "receiver"))
        let service = CBUUID(string: StandardDevices.UUID.streamService)
        let counter = CBUUID(string: StandardDevices.UUID.streamCounter)
        let tally = Tally(expected: count)
        let done = DispatchSemaphore(value: 0)
        let started = Started()
        let subscription = manager.observeStateWithInitialValue().filter { $0 == .poweredOn }.take(1)
            .flatMap { _ in manager.scanForPeripherals(withServices: [service]).take(1) }
            .flatMap { $0.peripheral.establishConnection() }
            .flatMap { $0.discoverServices([service]) }
            .flatMap { $0[0].discoverCharacteristics([counter]) }
            .flatMap { $0[0].observeValueUpdateAndSetNotification() }
            .subscribe(
                onNext: { characteristic in
                    if tally.received == 0 { started.cpu = cpuMicroseconds() }
                    guard let value = characteristic.value else { return }
                    if value.withUnsafeBytes(tally.add) { done.signal() }
                },
                onError: { error in
                    _ = fail("the subscription failed: \(error)")
                    done.signal()
                })
        // Notifications that arrive until the process ends still cost: it ends without tearing down.
        withExtendedLifetime((manager, subscription)) { done.wait() }
        let spent = cpuMicroseconds() - started.cpu
        Child.stop(child)
        return report(tally, cpu: spent)
    }

    /// The simulated BlueZ on the bus at `address`, with the streaming device alone, notifying every
    /// `period` microseconds; until SIGTERM.
    static func simulate(address: String, period: Int) throws -> Never {
        let connection = try DBusConnection(address: address)
        let configuration = BlueZSimulation.Configuration(
            devices: [StandardDevices.fastNotifier(period: .microseconds(period))],
            connectDelay: .milliseconds(10), serviceResolveDelay: .milliseconds(10))
        let simulation = BlueZSimulation(
            configuration: configuration, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "bluez-sim"))
        let running = simulation.run(on: connection)
        while true {
            pause()
            withExtendedLifetime((connection, simulation, running)) {}
        }
    }
}

/// When the first notification arrived, in CPU microseconds (the set-up before it is not counted).
private final class Started: @unchecked Sendable {
    var cpu = 0
}
