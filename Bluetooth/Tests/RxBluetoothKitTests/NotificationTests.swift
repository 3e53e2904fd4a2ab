import BlueZSim
import CoreBluetooth
import RxBluetoothKit
import RxSwift
import RxTest
import XCTest

final class NotificationTests: XCTestCase {
    private let heartRate = CBUUID(string: "180D")
    private let measurement = CBUUID(string: "2A37")

    /// Connects at 4 000 and finds the measurement characteristic (BlueZ resolves services by 4 500).
    private func measurementCharacteristic(_ bluez: SimulatedBlueZ) throws -> (Peripheral, Characteristic, Disposable) {
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        var connection: Disposable?
        var found: Characteristic?
        bluez.at(4_000) {
            connection = peripheral.establishConnection()
                .flatMap { $0.discoverServices([self.heartRate]) }
                .flatMap { $0[0].discoverCharacteristics([self.measurement]) }
                .subscribe(onNext: { found = $0.first }, onError: { _ in })
        }
        bluez.advance(to: 5_000)
        return (peripheral, try XCTUnwrap(found, "no measurement characteristic"), try XCTUnwrap(connection))
    }

    func testOneNotificationSubscriptionSharedAndEndedWithItsLastObserver() throws {
        let bluez = SimulatedBlueZ()
        let (_, characteristic, connection) = try measurementCharacteristic(bluez)
        defer { connection.dispose() }
        let path = try XCTUnwrap(bluez.simulation.characteristicPath(address: Sim.heartRateMonitor, uuid: "2A37"))
        let first = bluez.record(
            { characteristic.observeValueUpdateAndSetNotification().map { $0.value?.count ?? 0 } },
            at: 5_000, until: 8_500)
        let second = bluez.record(
            { characteristic.observeValueUpdateAndSetNotification().map { $0.value?.count ?? 0 } },
            at: 6_200, until: 10_500)
        bluez.advance(to: 7_000)
        XCTAssertEqual(
            bluez.simulation.snapshot.device(Sim.heartRateMonitor)?.notifyClients[path], [bluez.client.uniqueName])
        bluez.advance(to: 9_000)
        XCTAssertEqual(
            bluez.simulation.snapshot.device(Sim.heartRateMonitor)?.notifyClients[path], [bluez.client.uniqueName])
        bluez.advance(to: 11_000)
        XCTAssertEqual(bluez.simulation.snapshot.device(Sim.heartRateMonitor)?.notifyClients[path] ?? [], [])
        XCTAssertFalse(characteristic.isNotifying)
        // A notification every second from StartNotify (at 5 000): 6 000, 7 000, 8 000 for the first,
        // 7 000 to 10 000 for the second, which joined at 6 200.
        XCTAssertEqual(first.events.map(\.time), [6_000, 7_000, 8_000])
        XCTAssertEqual(second.events.map(\.time), [7_000, 8_000, 9_000, 10_000])
        XCTAssertEqual(first.events.compactMap(\.value.element), [2, 2, 2])
    }

    func testNotificationsArriveInOrderWithTheSimulatedHeartRate() throws {
        let bluez = SimulatedBlueZ()
        let (_, characteristic, connection) = try measurementCharacteristic(bluez)
        defer { connection.dispose() }
        let values = bluez.record(
            {
                characteristic.observeValueUpdateAndSetNotification().map { Array($0.value ?? Data()) }
            }, at: 5_000, until: 10_500)
        bluez.advance(to: 11_000)
        let beats = values.events.compactMap(\.value.element)
        XCTAssertEqual(beats.count, 5)
        XCTAssertTrue(beats.allSatisfy { $0.count == 2 && $0[0] == 0x06 && (62...104).contains($0[1]) }, "\(beats)")
    }

    func testRadioOffMidNotificationFailsWithPoweredOff() throws {
        let bluez = SimulatedBlueZ()
        let (_, characteristic, connection) = try measurementCharacteristic(bluez)
        defer { connection.dispose() }
        let values = bluez.record({ characteristic.observeValueUpdateAndSetNotification() }, at: 5_000)
        bluez.at(7_500) { bluez.simulation.setPowered(false) }
        bluez.advance(to: 9_000)
        XCTAssertEqual(values.events.map(\.time), [6_000, 7_000, 7_500])
        XCTAssertEqual(values.events.last?.bluetoothError, .bluetoothPoweredOff)
    }

    func testLinkLossMidNotificationFailsWithPeripheralDisconnected() throws {
        let bluez = SimulatedBlueZ()
        let (peripheral, characteristic, connection) = try measurementCharacteristic(bluez)
        defer { connection.dispose() }
        let values = bluez.record({ characteristic.observeValueUpdateAndSetNotification() }, at: 5_000)
        bluez.at(7_500) { bluez.simulation.dropLink(address: Sim.heartRateMonitor) }
        bluez.advance(to: 9_000)
        XCTAssertEqual(values.events.map(\.time), [6_000, 7_000, 7_500])
        XCTAssertEqual(values.events.last?.bluetoothError, .peripheralDisconnected(peripheral, nil))
    }

    func testNotifyingACharacteristicThatCannotIsRefused() throws {
        let bluez = SimulatedBlueZ()
        let (peripheral, _, connection) = try measurementCharacteristic(bluez)
        defer { connection.dispose() }
        var location: Characteristic?
        bluez.at(5_000) {
            _ = peripheral.discoverServices([self.heartRate]).flatMap {
                $0[0].discoverCharacteristics([CBUUID(string: "2A38")])
            }
            .subscribe(onSuccess: { location = $0.first })
        }
        bluez.advance(to: 5_100)
        guard let location else { return XCTFail("no body sensor location") }
        let values = bluez.record({ location.observeValueUpdateAndSetNotification() }, at: 5_200)
        bluez.advance(to: 5_300)
        guard case .characteristicSetNotifyValueFailed(_, let reason?)? = values.events.first?.bluetoothError else {
            return XCTFail("\(values.events)")
        }
        XCTAssertEqual(values.events.first?.time, 5_200)
        XCTAssertEqual((reason as? CBATTError)?.code, .requestNotSupported, "\(reason)")
    }
}
