import BlueZSim
import CoreBluetooth
import RxBluetoothKit
import RxSwift
import RxTest
import XCTest

final class OperationTests: XCTestCase {
    /// A connection made at 4 000, held until the end of the test.
    private func connected(_ bluez: SimulatedBlueZ, _ address: String) throws -> (
        Peripheral, TestableObserver<Peripheral>
    ) {
        let peripheral = try bluez.discover(address)
        let connection = bluez.record({ peripheral.establishConnection() }, at: 4_000)
        return (peripheral, connection)
    }

    private func single<T>(_ bluez: SimulatedBlueZ, at time: TestTime, _ make: @escaping () -> Single<T>)
        -> TestableObserver<T>
    {
        bluez.record({ make().asObservable() }, at: time)
    }

    func testDiscoveryWaitsForBlueZToResolveTheServices() throws {
        let bluez = SimulatedBlueZ()
        let (peripheral, _) = try connected(bluez, Sim.heartRateMonitor)
        // Asked as soon as the link is up (4 300); BlueZ resolves the services 200 ms later.
        let services = single(bluez, at: 4_301) { peripheral.discoverServices(nil) }
        bluez.advance(to: 5_000)
        XCTAssertEqual(services.events.map(\.time), [4_500, 4_500])
        let uuids = services.events.first?.value.element?.map(\.uuid.uuidString)
        XCTAssertEqual(uuids, ["1800", "1801", "180D", "180A", "180F"])
        XCTAssertEqual(peripheral.services?.count, 5)
        let names = services.events.first?.value.element?.map(\.uuid.description)
        XCTAssertEqual(names?[2], "Heart Rate")
    }

    func testReadWriteAndTheirErrors() throws {
        let bluez = SimulatedBlueZ()
        let (peripheral, _) = try connected(bluez, Sim.heartRateMonitor)
        var characteristics: [Characteristic] = []
        bluez.at(5_000) {
            _ = peripheral.discoverServices([CBUUID(string: "180D")])
                .flatMap { $0[0].discoverCharacteristics(nil) }
                .subscribe(onSuccess: { characteristics = $0 })
        }
        bluez.advance(to: 5_000)
        XCTAssertEqual(characteristics.map(\.uuid.uuidString), ["2A37", "2A38", "2A39"])
        XCTAssertEqual(characteristics.map(\.properties), [.notify, .read, .write])
        let location = single(bluez, at: 5_100) { characteristics[1].readValue().map { Array($0.value ?? Data()) } }
        let unreadable = single(bluez, at: 5_200) { characteristics[2].readValue() }
        let written = single(bluez, at: 5_300) {
            characteristics[2].writeValue(Data([0x01]), type: .withResponse).map { $0.uuid.uuidString }
        }
        let unwritable = single(bluez, at: 5_400) { characteristics[1].writeValue(Data([0x02]), type: .withResponse) }
        bluez.advance(to: 6_000)
        XCTAssertEqual(location.events, [.next(5_100, [0x01]), .completed(5_100)])
        guard case .characteristicReadFailed(_, let readError?)? = unreadable.events.first?.bluetoothError else {
            return XCTFail("\(unreadable.events)")
        }
        XCTAssertEqual((readError as? CBATTError)?.code, .readNotPermitted)
        XCTAssertEqual(written.events, [.next(5_300, "2A39"), .completed(5_300)])
        guard case .characteristicWriteFailed(_, let writeError?)? = unwritable.events.first?.bluetoothError else {
            return XCTFail("\(unwritable.events)")
        }
        XCTAssertEqual((writeError as? CBATTError)?.code, .writeNotPermitted)
    }

    func testWritesWithAndWithoutResponseReachTheDevice() throws {
        let bluez = SimulatedBlueZ()
        let (peripheral, _) = try connected(bluez, Sim.light)
        var onOff: Characteristic?
        bluez.at(5_000) {
            _ = peripheral.discoverServices([CBUUID(string: StandardDevices.UUID.lightService)])
                .flatMap { $0[0].discoverCharacteristics([CBUUID(string: StandardDevices.UUID.lightOnOff)]) }
                .subscribe(onSuccess: { onOff = $0.first })
        }
        bluez.advance(to: 5_000)
        let characteristic = try XCTUnwrap(onOff)
        let path = try XCTUnwrap(
            bluez.simulation.characteristicPath(address: Sim.light, uuid: StandardDevices.UUID.lightOnOff))
        let writes = bluez.record({ peripheral.observeWrite(for: characteristic).map { _ in () } }, at: 5_050)
        let withResponse = single(bluez, at: 5_100) { characteristic.writeValue(Data([0x01]), type: .withResponse) }
        bluez.advance(to: 5_150)
        XCTAssertEqual(bluez.simulation.snapshot.device(Sim.light)?.values[path], [0x01])
        let withoutResponse = single(bluez, at: 5_200) {
            characteristic.writeValue(Data([0x00]), type: .withoutResponse)
        }
        let readBack = single(bluez, at: 5_300) { characteristic.readValue().map { Array($0.value ?? Data()) } }
        bluez.advance(to: 6_000)
        XCTAssertEqual(withResponse.events.map(\.time), [5_100, 5_100])
        XCTAssertEqual(withoutResponse.events.map(\.time), [5_200, 5_200])
        XCTAssertEqual(readBack.events.first?.value.element, [0x00])
        // Writes without response are reported to no one but their writer, as with CoreBluetooth.
        XCTAssertEqual(writes.events.map(\.time), [5_100])
        XCTAssertEqual(peripheral.maximumWriteValueLength(for: .withResponse), 512)
        XCTAssertEqual(peripheral.maximumWriteValueLength(for: .withoutResponse), 244)
    }

    func testADeviceThatVanishesDuringDiscoveryFailsIt() throws {
        let bluez = SimulatedBlueZ()
        let (peripheral, connection) = try connected(bluez, Sim.heartRateMonitor)
        let services = single(bluez, at: 4_301) { peripheral.discoverServices(nil) }
        bluez.at(4_400) { bluez.simulation.vanish(address: Sim.heartRateMonitor) }
        bluez.advance(to: 6_000)
        XCTAssertEqual(services.events.map(\.time), [4_400])
        XCTAssertEqual(services.events.first?.bluetoothError, .peripheralDisconnected(peripheral, nil))
        XCTAssertEqual(connection.events.map(\.time), [4_300, 4_400])
        XCTAssertEqual(connection.events.last?.bluetoothError, .peripheralDisconnected(peripheral, nil))
    }

    func testOperationsOnADisconnectedPeripheralFail() throws {
        let bluez = SimulatedBlueZ()
        let peripheral = try bluez.discover(Sim.heartRateMonitor)
        let services = single(bluez, at: 4_000) { peripheral.discoverServices(nil) }
        bluez.advance(to: 4_001)
        XCTAssertEqual(services.events.map(\.time), [4_000])
        XCTAssertEqual(services.events.first?.bluetoothError, .peripheralDisconnected(peripheral, nil))
    }

    func testRSSIAsFarAsBlueZHasIt() throws {
        let bluez = SimulatedBlueZ()
        let (peripheral, _) = try connected(bluez, Sim.heartRateMonitor)
        // The scan that found it ended: BlueZ no longer has a current RSSI.
        let rssi = single(bluez, at: 5_000) { peripheral.readRSSI().map { $0.1 } }
        bluez.advance(to: 5_000)
        // While a scan runs, BlueZ keeps the last advertisement's RSSI.
        let other = try bluez.discover(Sim.light, at: 6_000)
        let scanning = bluez.record({ bluez.manager.scanForPeripherals(withServices: nil) }, at: 10_000)
        let connection = bluez.record({ other.establishConnection() }, at: 10_500)
        let during = single(bluez, at: 12_000) { other.readRSSI().map { $0.1 } }
        bluez.advance(to: 12_100)
        XCTAssertFalse(scanning.events.isEmpty)
        XCTAssertEqual(connection.events.count, 1)
        guard case .peripheralRSSIReadFailed(_, let reason?)? = rssi.events.first?.bluetoothError else {
            return XCTFail("\(rssi.events)")
        }
        XCTAssertEqual((reason as? CBError)?.code, .operationNotSupported)
        XCTAssertNotNil(during.events.first?.value.element)
    }
}
