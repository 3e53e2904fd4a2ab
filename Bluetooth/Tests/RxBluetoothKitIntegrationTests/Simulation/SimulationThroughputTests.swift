import BlueZSim
import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// Notifications at the rate of a streaming sensor, through the bus: the simulation's fast notifier
/// sends a little-endian counter (1, 2, 3, …) every millisecond, and every value arrives, in order.
final class SimulationThroughputTests: SimulationTestCase {
    func testAThousandNotificationsASecondArriveInOrderWithNoneLost() throws {
        let address = StandardDevices.Address.fastNotifier
        try startSimulation(
            BlueZSimulation.Configuration(
                devices: [StandardDevices.fastNotifier(period: .milliseconds(1))],
                connectDelay: .milliseconds(20), serviceResolveDelay: .milliseconds(20)))
        let manager = try poweredOnManager()
        let peripheral = try scanForPeripheral(
            named: "Stream Sim", services: [CBUUID(string: StandardDevices.UUID.streamService)], of: manager)
        _ = try connect(peripheral)
        let counter = try characteristic(
            StandardDevices.UUID.streamCounter, in: StandardDevices.UUID.streamService, of: peripheral)

        // Three seconds of notifications, each value taken as it is delivered (the characteristic's
        // value changes with the next one).
        let started = Date()
        let values = try counter.observeValueUpdateAndSetNotification()
            .map { characteristic -> UInt32 in
                [UInt8](characteristic.value ?? Data()).reversed().reduce(0) { $0 << 8 | UInt32($1) }
            }
            .take(for: .seconds(3), scheduler: centralScheduler)
            .toBlocking(timeout: 4.5).toArray()
        let elapsed = Date().timeIntervalSince(started)
        let path = try XCTUnwrap(
            simulation.characteristicPath(address: address, uuid: StandardDevices.UUID.streamCounter))
        let sent = try simulatedDevice(address).notificationCounts[path] ?? 0
        print("throughput: \(values.count) notifications received in \(elapsed) s (\(sent) sent)")

        // The first of the connection, and every one after it up to the last received: none lost,
        // none out of order, none twice.
        XCTAssertEqual(values, Array(1...UInt32(max(values.count, 1))))
        // The simulation sends each notification at its own millisecond from the start: a thousand a
        // second. Three seconds' worth arrive (allowing for the first ones and the last ones of the
        // window on a busy machine): at least 2 700.
        XCTAssertGreaterThanOrEqual(values.count, 2_700)
        XCTAssertGreaterThanOrEqual(sent, values.count)
    }
}
