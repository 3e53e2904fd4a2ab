import CoreBluetooth
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest
import XCTest

/// The GATT application's registrations when BlueZ takes its time to answer (50 ms here).
final class PeripheralRegistrationTests: XCTestCase {
    func testChangesAreRegisteredOneAtATime() throws {
        let h = PeripheralHarness()
        h.bluez.delayApplications(by: 50)
        let first = TestService.make().0
        let second = CBMutableService(type: CBUUID(string: "180F"), primary: true)
        let addedFirst = h.record({ h.manager.add(first).asObservable().map(\.uuid) }, at: 100)
        let addedSecond = h.record({ h.manager.add(second).asObservable().map(\.uuid) }, at: 110)
        h.advance(to: 300)
        let root = try XCTUnwrap(DBusObjectPath(rawValue: first.objectPath)?.parent)
        // The second change waits for the first registration's answer.
        XCTAssertEqual(
            h.bluez.calls,
            [
                .next(100, "RegisterApplication \(root)"), .next(150, "UnregisterApplication \(root)"),
                .next(150, "RegisterApplication \(root)"),
            ])
        XCTAssertEqual(addedFirst.events, [.next(150, CBUUID(string: "180D")), .completed(150)])
        XCTAssertEqual(addedSecond.events, [.next(200, CBUUID(string: "180F")), .completed(200)])
        XCTAssertEqual(h.bluez.applicationTree.count, 6)
    }

    func testAnAddDisposedBeforeItsAnswerTakesTheServiceOutAgain() throws {
        let h = PeripheralHarness()
        h.bluez.delayApplications(by: 50)
        let service = TestService.make().0
        let added = h.record({ h.manager.add(service).asObservable() }, at: 100, until: 120)
        h.advance(to: 300)
        let root = try XCTUnwrap(DBusObjectPath(rawValue: service.objectPath)?.parent)
        XCTAssertTrue(added.events.isEmpty)
        XCTAssertEqual(
            h.bluez.calls, [.next(100, "RegisterApplication \(root)"), .next(150, "UnregisterApplication \(root)")])
        XCTAssertTrue(h.bluez.applications.isEmpty)
        XCTAssertFalse(h.exportsAnything())
    }

    func testAddingAServiceTwiceFails() throws {
        let h = PeripheralHarness()
        let service = TestService.make().0
        try h.add(service, at: 100)
        let again = h.record({ h.manager.add(service).asObservable() }, at: 200)
        h.advance(to: 300)
        XCTAssertEqual(again.events.first?.bluetoothError, .addingServiceFailed(service, nil))
        XCTAssertEqual(h.bluez.calls.count, 1)
    }

    func testTheApplicationIsRegisteredAgainWhenBlueZComesBack() throws {
        let h = PeripheralHarness()
        let service = TestService.make().0
        let root = try XCTUnwrap(h.add(service, at: 100).parent)
        let advertising = h.record({ h.manager.startAdvertising(nil) }, at: 200)
        let states = h.record({ h.manager.observeState() }, at: 300)
        h.at(1_000) { h.restartBlueZ() }
        h.advance(to: 2_000)
        // The advertisement ended when BlueZ left (its UnregisterAdvertisement reaches the new BlueZ,
        // which does not know it); the application is registered with the new one.
        XCTAssertEqual(
            h.bluez.calls,
            [
                .next(1_000, "UnregisterAdvertisement \(root.parent!.appending("advertisement"))"),
                .next(1_000, "RegisterApplication \(root)"),
            ])
        XCTAssertEqual(h.bluez.applications, [h.client.uniqueName: root])
        XCTAssertEqual(h.bluez.applicationTree.count, 5)
        XCTAssertEqual(advertising.events.last?.bluetoothError, .bluetoothUnsupported)
        XCTAssertEqual(states.events, [.next(1_000, .unsupported), .next(1_000, .poweredOn)])
    }
}
