import BlueZSim
import RxDBus
import XCTest

final class FaultTests: XCTestCase {
    typealias Address = StandardDevices.Address

    func testTheRadioGoingOffEndsDiscoveryAndConnections() {
        let harness = Harness()
        harness.discoverAndConnect(Address.heartRateMonitor)
        let measurement = harness.characteristic(Address.heartRateMonitor, "2a37")
        harness.call(at: 2000, measurement, BlueZ.gattCharacteristicInterface, "StartNotify")
        harness.at(3500) { harness.simulation.setPowered(false) }
        harness.advance(to: 6000)
        let device = BlueZ.devicePath(Address.heartRateMonitor)
        XCTAssertEqual(
            harness.values(of: "Discovering", BlueZ.adapterPath, BlueZ.adapterInterface).map { $0.0 }, [1000, 3500])
        XCTAssertEqual(harness.values(of: "Connected", device, BlueZ.deviceInterface).map { $0.0 }, [1400, 3500])
        XCTAssertEqual(
            harness.signals.first { $0.member == "Disconnected" }?.message.body.first, .string("org.bluez.Reason.Local")
        )
        XCTAssertTrue(harness.interfacesRemoved(since: 3500).contains { $0.path == measurement })
        XCTAssertEqual(harness.values(of: "Value", measurement, BlueZ.gattCharacteristicInterface).map(\.0), [3000])
        let adapter = harness.changes(BlueZ.adapterPath, BlueZ.adapterInterface, since: 3500)
        XCTAssertEqual(adapter.first?.changed, ["PowerState": .string("on-disabling")])
        XCTAssertEqual(adapter.last?.changed, ["Powered": .bool(false), "PowerState": .string("off")])
        XCTAssertEqual(harness.simulation.snapshot.isDiscovering, false)
        XCTAssertEqual(harness.simulation.snapshot.isPowered, false)
    }

    func testALinkLostMidNotificationSaysTimeoutAndNotificationsStop() {
        let harness = Harness()
        harness.discoverAndConnect(Address.heartRateMonitor)
        let measurement = harness.characteristic(Address.heartRateMonitor, "2a37")
        harness.call(at: 2000, measurement, BlueZ.gattCharacteristicInterface, "StartNotify")
        harness.at(4500) { harness.simulation.dropLink(address: Address.heartRateMonitor) }
        harness.advance(to: 8000)
        XCTAssertEqual(
            harness.values(of: "Value", measurement, BlueZ.gattCharacteristicInterface).map(\.0), [3000, 4000])
        let disconnected = harness.signals.filter { $0.member == "Disconnected" }
        XCTAssertEqual(disconnected.map(\.time), [4500])
        XCTAssertEqual(
            disconnected.first?.message.body, [.string("org.bluez.Reason.Timeout"), .string("Connection timeout")])
        // The device stays (it is permanent now) and advertises again.
        XCTAssertEqual(harness.simulation.snapshot.device(Address.heartRateMonitor)?.isOnBus, true)
        XCTAssertFalse(
            harness.values(
                of: "RSSI", BlueZ.devicePath(Address.heartRateMonitor), BlueZ.deviceInterface, since: 4501
            ).isEmpty)
    }

    func testAVanishedDeviceIsRemovedAndNotSeenUntilItReappears() {
        let harness = Harness()
        harness.discoverAndConnect(Address.light)
        harness.at(2000) { harness.simulation.vanish(address: Address.light) }
        harness.advance(to: 10_000)
        let device = BlueZ.devicePath(Address.light)
        let removed = harness.interfacesRemoved(since: 2000)
        XCTAssertEqual(removed.count, 14)
        XCTAssertEqual(removed.last?.path, device)
        XCTAssertEqual(
            harness.signals.first { $0.member == "Disconnected" }?.message.body.first,
            .string("org.bluez.Reason.Timeout"))
        XCTAssertFalse(harness.interfacesAdded(since: 2001).contains { $0.path == device })
        harness.at(10_500) { harness.simulation.reappear(address: Address.light) }
        harness.advance(to: 10_600)
        XCTAssertEqual(harness.interfacesAdded(since: 10_500).map(\.path), [device])
        XCTAssertEqual(harness.interfacesAdded(since: 10_500).first?.time, 10_600)
    }
}
