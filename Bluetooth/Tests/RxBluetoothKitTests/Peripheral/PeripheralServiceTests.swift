import CoreBluetooth
import RxBluetoothKit
import RxDBus
import RxSwift
import RxTest
import XCTest

final class PeripheralServiceTests: XCTestCase {
    func testAddingExportsAndRegistersTheApplication() throws {
        let h = PeripheralHarness()
        let (service, dynamic, cached, writable) = TestService.make()
        let path = try h.add(service, at: 100)
        let root = try XCTUnwrap(path.parent)
        XCTAssertEqual(h.bluez.calls, [.next(100, "RegisterApplication \(root)")])
        XCTAssertEqual(h.bluez.applications, [h.client.uniqueName: root])
        let tree = h.bluez.applicationTree
        XCTAssertEqual(tree.count, 5)
        XCTAssertEqual(tree[path]?["org.bluez.GattService1"]?["UUID"]?.string, "0000180d-0000-1000-8000-00805f9b34fb")
        XCTAssertEqual(tree[path]?["org.bluez.GattService1"]?["Primary"]?.bool, true)
        let characteristic = { (c: CBCharacteristic) in
            tree[DBusObjectPath(rawValue: c.objectPath)!]?["org.bluez.GattCharacteristic1"] ?? [:]
        }
        XCTAssertEqual(characteristic(dynamic)["Flags"]?.strings, ["read", "notify"])
        XCTAssertEqual(characteristic(dynamic)["Service"]?.objectPath, path)
        XCTAssertEqual(characteristic(cached)["Value"]?.bytes, [0x01])
        XCTAssertEqual(characteristic(writable)["Flags"]?.strings, ["write"])
        let descriptor = try XCTUnwrap(dynamic.descriptors?.first)
        let descriptorPath = try XCTUnwrap(DBusObjectPath(rawValue: descriptor.objectPath))
        XCTAssertEqual(tree[descriptorPath]?["org.bluez.GattDescriptor1"]?["Value"]?.bytes, Array("Pulse".utf8))
        XCTAssertTrue(dynamic.service === service)

        let read = h.call(at: 200) { h.bluez.readDescriptor(descriptorPath) }
        h.advance(to: 300)
        XCTAssertEqual(read.events, [.next(200, .bytes(Array("Pulse".utf8))), .completed(200)])
    }

    func testAddingAndRemovingRegistersAgain() throws {
        let h = PeripheralHarness()
        let first = TestService.make().0
        let second = CBMutableService(type: CBUUID(string: "180F"), primary: true)
        second.characteristics = [
            CBMutableCharacteristic(
                type: CBUUID(string: "2A19"), properties: [.read], value: Data([99]), permissions: [.readable])
        ]
        let firstPath = try h.add(first, at: 100)
        let secondPath = try h.add(second, at: 200)
        let root = try XCTUnwrap(firstPath.parent)
        XCTAssertEqual(
            h.bluez.calls,
            [
                .next(100, "RegisterApplication \(root)"), .next(200, "UnregisterApplication \(root)"),
                .next(200, "RegisterApplication \(root)"),
            ])
        XCTAssertEqual(h.bluez.applicationTree.count, 7)
        XCTAssertNotNil(h.bluez.applicationTree[secondPath])

        h.at(300) { h.manager.remove(first) }
        h.advance(to: 400)
        XCTAssertEqual(
            h.bluez.calls.suffix(2),
            [.next(300, "UnregisterApplication \(root)"), .next(300, "RegisterApplication \(root)")])
        XCTAssertEqual(Set(h.bluez.applicationTree.keys), [secondPath, secondPath.appending("char0")])

        h.at(500) { h.manager.removeAllServices() }
        h.advance(to: 600)
        XCTAssertEqual(h.bluez.calls.last, .next(500, "UnregisterApplication \(root)"))
        XCTAssertTrue(h.bluez.applications.isEmpty)
        XCTAssertFalse(h.exportsAnything())
        XCTAssertEqual(h.bus.matchRuleCount(of: h.client.uniqueName), 3)
    }

    func testARefusedApplicationFailsTheAddAndLeavesNothing() {
        let h = PeripheralHarness()
        h.bluez.refuse(applications: true)
        let service = TestService.make().0
        let added = h.record({ h.manager.add(service).asObservable() }, at: 100)
        h.advance(to: 200)
        XCTAssertEqual(added.events.first?.bluetoothError, .addingServiceFailed(service, nil))
        XCTAssertEqual(added.events.first?.time, 100)
        XCTAssertFalse(h.exportsAnything())
    }

    func testReleasingTheManagerUnregistersAndUnexportsEverything() throws {
        let h = PeripheralHarness()
        let path = try h.add(TestService.make().0, at: 100)
        let advertising = h.record({ h.manager.startAdvertising(nil) }, at: 200)
        h.advance(to: 300)
        XCTAssertEqual(advertising.events.count, 1)
        let adPath = try XCTUnwrap(h.bluez.advertisements.keys.first)
        h.at(400) { h.releaseManager() }
        h.advance(to: 500)
        XCTAssertEqual(advertising.events.last?.bluetoothError, .destroyed)
        XCTAssertEqual(advertising.events.last?.time, 400)
        XCTAssertEqual(
            Set(h.bluez.calls.suffix(2).compactMap(\.value.element)),
            ["UnregisterApplication \(path.parent!)", "UnregisterAdvertisement \(adPath)"])
        XCTAssertEqual(h.bluez.calls.suffix(2).map(\.time), [400, 400])
        XCTAssertTrue(h.bluez.applications.isEmpty)
        XCTAssertTrue(h.bluez.advertisements.isEmpty)
        XCTAssertFalse(h.exportsAnything())
        XCTAssertEqual(h.bus.matchRuleCount(of: h.client.uniqueName), 0)
    }
}
