import Foundation
import RxSwift
import RxTest
import XCTest

@testable import RxCocoa

// A small delegate-based API, as a UI kit or a device library would have one.

struct Location: Equatable {
    let latitude: Double
}

protocol LocationManagerDelegate: AnyObject {
    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location])
    func locationManagerShouldDisplayCalibration(_ manager: LocationManager) -> Bool
}

extension LocationManagerDelegate {
    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {}
    func locationManagerShouldDisplayCalibration(_ manager: LocationManager) -> Bool { false }
}

class LocationManager: HasDelegate, ReactiveCompatible {
    weak var delegate: LocationManagerDelegate?

    func report(_ locations: [Location]) {
        delegate?.locationManager(self, didUpdateLocations: locations)
    }

    func asksForCalibration() -> Bool? {
        delegate?.locationManagerShouldDisplayCalibration(self)
    }
}

final class GPSLocationManager: LocationManager {}

/// The proxy, written the way the RxSwift book writes its own (with method names in place of
/// selectors).
final class RxLocationManagerDelegateProxy: DelegateProxy<LocationManager, LocationManagerDelegate>, DelegateProxyType,
    LocationManagerDelegate
{
    static let didUpdateLocations: DelegateMethod = "locationManager(_:didUpdateLocations:)"
    static let shouldDisplayCalibration: DelegateMethod = "locationManagerShouldDisplayCalibration(_:)"

    init(locationManager: LocationManager) {
        super.init(parentObject: locationManager, delegateProxy: RxLocationManagerDelegateProxy.self)
    }

    static func registerKnownImplementations() {
        register { RxLocationManagerDelegateProxy(locationManager: $0) }
    }

    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
        forward(Self.didUpdateLocations, [manager, locations]) {
            $0.locationManager(manager, didUpdateLocations: locations)
        }
    }

    func locationManagerShouldDisplayCalibration(_ manager: LocationManager) -> Bool {
        forward(Self.shouldDisplayCalibration, [manager], default: true) {
            $0.locationManagerShouldDisplayCalibration(manager)
        }
    }
}

extension Reactive where Base: LocationManager {
    var delegate: DelegateProxy<LocationManager, LocationManagerDelegate> {
        RxLocationManagerDelegateProxy.proxy(for: base)
    }

    var didUpdateLocations: Observable<[Location]> {
        delegate.methodInvoked(RxLocationManagerDelegateProxy.didUpdateLocations)
            .map { parameters in parameters[1] as! [Location] }
    }

    var locationUpdates: ControlEvent<[Location]> {
        ControlEvent(events: didUpdateLocations)
    }

    func setDelegate(_ delegate: LocationManagerDelegate) -> Disposable {
        RxLocationManagerDelegateProxy.installForwardDelegate(delegate, retainDelegate: false, onProxyForObject: base)
    }
}

private final class RecordingDelegate: LocationManagerDelegate {
    var log: [String] = []
    var calibration = false

    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
        log.append("delegate \(locations.map(\.latitude))")
    }

    func locationManagerShouldDisplayCalibration(_ manager: LocationManager) -> Bool {
        calibration
    }
}

final class DelegateProxyTests: RxLeakCheckingTestCase {
    func testOneProxyPerObjectInstalledAsItsDelegate() {
        let manager = LocationManager()
        let proxy = RxLocationManagerDelegateProxy.proxy(for: manager)
        XCTAssertTrue(manager.delegate === proxy)
        XCTAssertTrue(RxLocationManagerDelegateProxy.proxy(for: manager) === proxy)
        XCTAssertTrue(manager.rx.delegate === proxy)
        XCTAssertTrue(RxLocationManagerDelegateProxy.proxy(for: LocationManager()) !== proxy)
    }

    func testCallsAreReportedAroundTheForwardDelegate() {
        let manager = LocationManager()
        let original = RecordingDelegate()
        manager.delegate = original
        var log: [String] = []
        let proxy = RxLocationManagerDelegateProxy.proxy(for: manager)
        let sent = proxy.sentMessage(RxLocationManagerDelegateProxy.didUpdateLocations)
            .subscribe(onNext: { log.append("sent \(($0[1] as! [Location]).map(\.latitude))") })
        let invoked = manager.rx.didUpdateLocations
            .subscribe(onNext: { log.append("invoked \($0.map(\.latitude))") })
        manager.report([Location(latitude: 1)])
        original.log.forEach { log.append($0) }
        XCTAssertEqual(log, ["sent [1.0]", "invoked [1.0]", "delegate [1.0]"])
        XCTAssertEqual(original.log, ["delegate [1.0]"])
        XCTAssertTrue(proxy.forwardToDelegate() === original)
        sent.dispose()
        invoked.dispose()
    }

    func testMethodsWithAResultAskTheForwardDelegateOrAnswerTheDefault() {
        let manager = LocationManager()
        let proxy = RxLocationManagerDelegateProxy.proxy(for: manager)
        var asked = 0
        let counting = proxy.methodInvoked(RxLocationManagerDelegateProxy.shouldDisplayCalibration)
            .subscribe(onNext: { _ in asked += 1 })
        XCTAssertEqual(manager.asksForCalibration(), true)
        let delegate = RecordingDelegate()
        let installed = manager.rx.setDelegate(delegate)
        XCTAssertEqual(manager.asksForCalibration(), false)
        delegate.calibration = true
        XCTAssertEqual(manager.asksForCalibration(), true)
        installed.dispose()
        XCTAssertNil(proxy.forwardToDelegate())
        XCTAssertEqual(asked, 3)
        counting.dispose()
    }

    func testADelegateSetAfterTheProxyBecomesItsForwardDelegate() {
        let manager = LocationManager()
        _ = RxLocationManagerDelegateProxy.proxy(for: manager)
        let later = RecordingDelegate()
        manager.delegate = later
        let proxy = RxLocationManagerDelegateProxy.proxy(for: manager)
        XCTAssertTrue(manager.delegate === proxy)
        XCTAssertTrue(proxy.forwardToDelegate() === later)
    }

    func testTheForwardDelegateIsHeldWeaklyUnlessRetained() {
        let manager = LocationManager()
        let proxy = RxLocationManagerDelegateProxy.proxy(for: manager)
        var weakDelegate: RecordingDelegate? = RecordingDelegate()
        _ = manager.rx.setDelegate(weakDelegate!)
        weakDelegate = nil
        XCTAssertNil(proxy.forwardToDelegate())
        let retained = RxLocationManagerDelegateProxy.installForwardDelegate(
            RecordingDelegate(), retainDelegate: true, onProxyForObject: manager)
        XCTAssertNotNil(proxy.forwardToDelegate())
        retained.dispose()
        XCTAssertNil(proxy.forwardToDelegate())
    }

    func testASubclassUsesTheFactoryOfItsSuperclass() {
        let manager = GPSLocationManager()
        var updates: [[Location]] = []
        let subscription = manager.rx.locationUpdates.subscribe(onNext: { updates.append($0) })
        manager.report([Location(latitude: 2)])
        XCTAssertEqual(updates, [[Location(latitude: 2)]])
        subscription.dispose()
    }

    func testTheProxyGoesWithItsObjectAndItsSequencesComplete() {
        var manager: LocationManager? = LocationManager()
        weak let weakProxy = RxLocationManagerDelegateProxy.proxy(for: manager!)
        var completed = false
        let subscription = manager!.rx.didUpdateLocations.subscribe(onCompleted: { completed = true })
        manager = nil
        // The table lets go of the proxy the next time it is used.
        _ = ProxyRegistry.shared.count
        XCTAssertNil(weakProxy)
        XCTAssertTrue(completed)
        subscription.dispose()
    }

    func testTheMainQueueSweepReleasesTheProxyOfAGoneObject() {
        var manager: LocationManager? = LocationManager()
        weak let weakProxy = RxLocationManagerDelegateProxy.proxy(for: manager!)
        manager = nil
        let deadline = Date().addingTimeInterval(2)
        while weakProxy != nil && Date() < deadline {
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
        XCTAssertNil(weakProxy)
    }
}

// A data source, proxied the same way through `HasDataSource`.

protocol ListDataSource: AnyObject {
    func numberOfRows(in list: ListView) -> Int
}

final class ListView: HasDataSource, ReactiveCompatible {
    weak var dataSource: ListDataSource?

    func reload() -> Int {
        dataSource?.numberOfRows(in: self) ?? -1
    }
}

final class RxListDataSourceProxy: DelegateProxy<ListView, ListDataSource>, DelegateProxyType, ListDataSource {
    static let numberOfRows: DelegateMethod = "numberOfRows(in:)"

    init(listView: ListView) {
        super.init(parentObject: listView, delegateProxy: RxListDataSourceProxy.self)
    }

    static func registerKnownImplementations() {
        register { RxListDataSourceProxy(listView: $0) }
    }

    func numberOfRows(in list: ListView) -> Int {
        forward(Self.numberOfRows, [list], default: 0) { $0.numberOfRows(in: list) }
    }
}

final class DataSourceProxyTests: RxLeakCheckingTestCase {
    func testAHasDataSourceObjectIsProxiedThroughItsDataSource() {
        let list = ListView()
        let proxy = RxListDataSourceProxy.proxy(for: list)
        XCTAssertTrue(list.dataSource === proxy)
        var reloads = 0
        let subscription = proxy.methodInvoked(RxListDataSourceProxy.numberOfRows).subscribe(onNext: { _ in
            reloads += 1
        })
        XCTAssertEqual(list.reload(), 0)
        XCTAssertEqual(reloads, 1)
        subscription.dispose()
    }
}
