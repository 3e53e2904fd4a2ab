import BlueZSim
import CoreBluetooth
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest
import XCTest

/// A peripheral manager and a central manager, each on a connection of its own, and the simulated BlueZ
/// on a third, all in virtual time: the central scans, connects, reads, writes and watches what the
/// peripheral manager serves, through the simulation's virtual radio.
final class PeripheralEndToEndTests: XCTestCase {
    func testACentralUsesWhatAPeripheralManagerServes() throws {
        let bluez = SimulatedBlueZ()
        let peripheralManager = PeripheralManager(bus: bluez.bus.connect(), scheduler: bluez.scheduler)
        let (service, dynamic, _, _) = TestService.make()
        let bag = DisposeBag()
        var written: [Data] = []
        var subscriptions: [TestTime] = []
        bluez.at(10) {
            peripheralManager.observeDidReceiveRead().subscribe(onNext: { request in
                request.value = Data([0x00, 72].dropFirst(request.offset))
                peripheralManager.respond(to: request, withResult: .success)
            }).disposed(by: bag)
            peripheralManager.observeDidReceiveWrite().subscribe(onNext: { requests in
                written += requests.compactMap(\.value)
                peripheralManager.respond(
                    to: requests[0], withResult: requests[0].value == Data([0xFF]) ? .writeNotPermitted : .success)
            }).disposed(by: bag)
            peripheralManager.observeOnSubscribe().subscribe(onNext: { _ in subscriptions.append(bluez.scheduler.clock)
            })
            .disposed(by: bag)
        }
        let added = bluez.record({ peripheralManager.add(service).asObservable() }, at: 20)
        let advertising = bluez.record(
            {
                peripheralManager.startAdvertising([
                    CBAdvertisementDataLocalNameKey: "Pulse",
                    CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "180D")],
                ])
            }, at: 30)
        bluez.advance(to: 50)
        XCTAssertEqual(added.events.count, 2, "\(added.events)")
        XCTAssertEqual(advertising.events.count, 1, "\(advertising.events)")

        let scanned = bluez.record(
            {
                bluez.manager.scanForPeripherals(withServices: [CBUUID(string: "180D")])
                    .filter { $0.peripheral.peripheral.address == bluez.simulation.virtualPeripheralAddress }.take(1)
            }, at: 100)
        bluez.advance(to: 3_000)
        let seen = try XCTUnwrap(scanned.events.first?.value.element, "not seen: \(scanned.events)")
        XCTAssertEqual(seen.advertisementData.localName, "Pulse")
        let peripheral = seen.peripheral

        var characteristics: [CBUUID: Characteristic] = [:]
        var connection: Disposable?
        bluez.at(4_000) {
            connection = peripheral.establishConnection()
                .flatMap { $0.discoverServices([CBUUID(string: "180D")]) }
                .flatMap { $0[0].discoverCharacteristics(nil) }
                .subscribe(onNext: { found in
                    for characteristic in found { characteristics[characteristic.uuid] = characteristic }
                })
        }
        bluez.advance(to: 6_000)
        XCTAssertEqual(
            Set(characteristics.keys), [CBUUID(string: "2A37"), CBUUID(string: "2A38"), CBUUID(string: "2A39")])
        let pulse = try XCTUnwrap(characteristics[CBUUID(string: "2A37")])
        let location = try XCTUnwrap(characteristics[CBUUID(string: "2A38")])
        let message = try XCTUnwrap(characteristics[CBUUID(string: "2A39")])

        let pulseRead = bluez.record({ pulse.readValue().asObservable().map { $0.value } }, at: 6_100)
        let locationRead = bluez.record({ location.readValue().asObservable().map { $0.value } }, at: 6_200)
        let write = bluez.record(
            { message.writeValue(Data([7]), type: .withResponse).asObservable().map { _ in true } }, at: 6_300)
        let refused = bluez.record(
            { message.writeValue(Data([0xFF]), type: .withResponse).asObservable().map { _ in true } }, at: 6_400)
        bluez.advance(to: 7_000)
        XCTAssertEqual(pulseRead.events.first?.value.element, Data([0x00, 72]))
        XCTAssertEqual(locationRead.events.first?.value.element, Data([0x01]))
        XCTAssertEqual(write.events.first?.value.element, true)
        XCTAssertEqual(written, [Data([7]), Data([0xFF])])
        XCTAssertEqual(
            (refused.events.first?.value.error as? BluetoothError).map { "\($0)" }?.contains("cannot be written"), true,
            "\(refused.events)")

        let notifications = bluez.record(
            { pulse.observeValueUpdateAndSetNotification().map { $0.value ?? Data() } }, at: 7_100, until: 8_000)
        var updates: [Bool] = []
        bluez.at(7_500) {
            updates.append(peripheralManager.updateValue(Data([0x00, 80]), for: dynamic, onSubscribedCentrals: nil))
        }
        bluez.at(7_600) {
            updates.append(peripheralManager.updateValue(Data([0x00, 80]), for: dynamic, onSubscribedCentrals: nil))
        }
        bluez.advance(to: 9_000)
        XCTAssertEqual(subscriptions.count, 1)
        XCTAssertEqual(updates, [true, true])
        XCTAssertEqual(notifications.events.compactMap(\.value.element), [Data([0x00, 80]), Data([0x00, 80])])
        XCTAssertEqual(dynamic.subscribedCentrals?.count, 0, "StopNotify after the central's last observer went")
        connection?.dispose()
    }
}
