import RxBluetoothKit
import RxDBus
import RxSwift
import XCTest

/// The manager's state from python-dbusmock's adapter: its presence and its `Powered`.
final class DBusMockStateTests: DBusMockTestCase {
    func testPoweredAdapterIsPoweredOn() throws {
        try mock.addAdapter()
        let manager = makeManager()
        XCTAssertEqual(try knownState(of: manager), .poweredOn)
        XCTAssertEqual(manager.state, .poweredOn)
    }

    func testNoAdapterIsUnsupportedUntilOneIsAdded() throws {
        let manager = makeManager()
        XCTAssertEqual(try knownState(of: manager), .unsupported)
        let changes = Recording(manager.observeState(), disposedBy: bag)
        try mock.addAdapter()
        XCTAssertEqual(try changes.first(), .poweredOn)
    }

    func testStateFollowsPoweredChanges() throws {
        try mock.addAdapter()
        let manager = makeManager()
        XCTAssertEqual(try knownState(of: manager), .poweredOn)
        let changes = Recording(manager.observeState(), disposedBy: bag)
        try mock.updateProperties(adapterPath, "org.bluez.Adapter1", ["Powered": .bool(false)])
        try mock.updateProperties(adapterPath, "org.bluez.Adapter1", ["Powered": .bool(true)])
        XCTAssertEqual(try changes.elements(2), [.poweredOff, .poweredOn])
        XCTAssertEqual(manager.state, .poweredOn)
    }

    /// The manager follows BlueZ with three match rules: the object manager's signals (one rule for
    /// InterfacesAdded and InterfacesRemoved), the objects' PropertiesChanged, and org.bluez's owner
    /// changes.
    func testManagerHoldsThreeMatchRulesWhileItLives() throws {
        let before = try centralMatchRules()
        try mock.addAdapter()
        let manager = makeManager()
        XCTAssertEqual(try knownState(of: manager), .poweredOn)
        XCTAssertEqual(try centralMatchRules(), before + 3)
    }
}
