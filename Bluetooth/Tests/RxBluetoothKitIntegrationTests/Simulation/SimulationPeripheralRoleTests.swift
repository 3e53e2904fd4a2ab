import BlueZSim
import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// RxBluetoothKit's peripheral role on a real bus: a PeripheralManager on a connection of its own
/// (delivering on its own queue) serves the simulation's virtual peripheral, and the test's central
/// uses it; when its subscriptions and the manager are gone, nothing of it stays registered with the
/// simulated BlueZ or exported on the bus.
final class SimulationPeripheralRoleTests: SimulationTestCase {
    func testACentralReadsWritesAndWatchesAPeripheralManager() throws {
        try startSimulation()
        let central = try poweredOnManager()
        let connection = try DBusConnection(address: bus.address)
        addCleanup { connection.close() }
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "peripheral")
        var served: DisposeBag? = DisposeBag()
        weak var released: PeripheralManager?

        try {
            let manager = PeripheralManager(bus: connection, scheduler: scheduler)
            released = manager
            _ = try manager.observeStateWithInitialValue().filter { $0 == .poweredOn }.toBlocking(timeout: 5).first()
            let service = CBMutableService(type: CBUUID(string: "180D"), primary: true)
            let pulse = CBMutableCharacteristic(
                type: CBUUID(string: "2A37"), properties: [.read, .notify], value: nil, permissions: [.readable])
            let message = CBMutableCharacteristic(
                type: CBUUID(string: "2A39"), properties: [.write], value: nil, permissions: [.writeable])
            service.characteristics = [pulse, message]
            manager.observeDidReceiveRead().subscribe(onNext: { [weak manager] request in
                request.value = Data([0x00, 72])
                manager?.respond(to: request, withResult: .success)
            }).disposed(by: served!)
            let writes = Recording(
                manager.observeDidReceiveWrite().do(onNext: { [weak manager] requests in
                    manager?.respond(to: requests[0], withResult: .success)
                }).map { $0.compactMap(\.value) }, disposedBy: served!)
            let subscriptions = Recording(manager.observeOnSubscribe().map { $0.1.uuid }, disposedBy: served!)
            XCTAssertEqual(try value(of: manager.add(service)).uuid, CBUUID(string: "180D"))
            let advertising = Recording(
                manager.startAdvertising([
                    CBAdvertisementDataLocalNameKey: "Pulse",
                    CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "180D")],
                ]), disposedBy: served!)
            guard case .started = try advertising.first() else { return XCTFail("not started") }

            let peripheral = try scanForPeripheral(named: "Pulse", services: [CBUUID(string: "180D")], of: central)
            let link = try connect(peripheral)
            let remotePulse = try characteristic("2A37", in: "180D", of: peripheral)
            let remoteMessage = try characteristic("2A39", in: "180D", of: peripheral)
            XCTAssertEqual(try value(of: remotePulse.readValue()).value, Data([0x00, 72]))
            _ = try value(of: remoteMessage.writeValue(Data("hi".utf8), type: .withResponse))
            XCTAssertEqual(try writes.first(), [Data("hi".utf8)])

            let notifications = Recording(remotePulse.observeValueUpdateAndSetNotification().map { $0.value })
            XCTAssertEqual(try subscriptions.first(), CBUUID(string: "2A37"))
            XCTAssertTrue(manager.updateValue(Data([0x00, 80]), for: pulse, onSubscribedCentrals: nil))
            XCTAssertEqual(try notifications.first(), Data([0x00, 80]))
            notifications.dispose()
            link.dispose()
        }()

        // The subscriptions go (the advertisement is unregistered), then the manager (the application).
        served = nil
        try drain(scheduler)
        XCTAssertNil(released, "the PeripheralManager outlived its subscriptions")
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let registrations = simulation.registrations
            if registrations.applications.isEmpty && registrations.advertisements.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(simulation.registrations.applications.isEmpty, "\(simulation.registrations)")
        XCTAssertTrue(simulation.registrations.advertisements.isEmpty, "\(simulation.registrations)")
        XCTAssertThrowsError(
            try value(
                of: observer.call(
                    destination: connection.uniqueName, path: .root, interface: DBusStandard.introspectable,
                    member: "Introspect")), "something of the manager is still exported")
    }
}
