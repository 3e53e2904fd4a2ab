import Foundation
import RxCocoa
import RxSwift
import RxTest
import Testing

@testable import TerminalUI

/// A delegate of the kind an application writes, recording what it hears.
private final class RecordingDelegate: LocationManagerDelegate {
    var log: [String] = []

    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
        log.append("locations \(locations.map(\.coordinate.latitude))")
    }

    func locationManager(_ manager: LocationManager, didFailWithError error: Error) {
        log.append("error \(error)")
    }
}

/// The TPV parser, the configuration, and the delegate proxy in virtual time (the gpsd connection's
/// events are fed to the manager as the scheduler would deliver them).
@MainActor
@Suite
final class LocationManagerTests {
    @Test func testATPVWithAFixBecomesALocation() throws {
        let line = """
            {"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-11-25T03:00:01.000Z","ept":0.005,\
            "lat":37.570000000,"lon":126.980000000,"altHAE":40.5,"altMSL":40.0,"alt":40.0,"track":12.5,\
            "speed":1.25,"eph":17.100,"epv":23.0}
            """
        let location = try #require(GPSDReport.location(fromLine: line))
        #expect(location.coordinate == LocationCoordinate2D(latitude: 37.57, longitude: 126.98))
        #expect(location.altitude == 40)  // above mean sea level, as Core Location
        #expect(location.horizontalAccuracy == 17.1)
        #expect(location.verticalAccuracy == 23)
        #expect(location.speed == 1.25)
        #expect(location.course == 12.5)
        #expect(location.timestamp == Date(timeIntervalSince1970: 1_795_575_601))
        #expect(location.horizontalAccuracy < kLocationAccuracyHundredMeters)
    }

    @Test func testA2DFixHasNoAltitudeAndMissingFieldsAreUnknown() throws {
        let received = Date(timeIntervalSince1970: 1000)
        let line = #"{"class":"TPV","mode":2,"lat":-33.8688,"lon":151.2093,"alt":99,"epx":5.0,"epy":7.5}"#
        let location = try #require(GPSDReport.location(fromLine: line, receivedAt: received))
        #expect(location.coordinate == LocationCoordinate2D(latitude: -33.8688, longitude: 151.2093))
        #expect(location.altitude == 0)
        #expect(location.verticalAccuracy == -1)
        #expect(location.horizontalAccuracy == 7.5)  // the larger axis error without `eph`
        #expect(location.speed == -1)
        #expect(location.course == -1)
        #expect(location.timestamp == received)  // no `time`: when it was received
        let older = #"{"class":"TPV","mode":3,"lat":1,"lon":2,"alt":12.5,"time":"2026-01-01T00:00:00Z"}"#
        #expect(GPSDReport.location(fromLine: older)?.altitude == 12.5)  // gpsd < 3.20: only `alt`
        #expect(GPSDReport.location(fromLine: older)?.timestamp == Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test func testReportsWithoutAFixAndOtherClassesAreIgnored() {
        for line in [
            #"{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"#,
            #"{"class":"TPV","mode":0,"lat":1,"lon":2}"#,
            #"{"class":"TPV","mode":2,"lat":1}"#,
            #"{"class":"SKY","satellites":[]}"#,
            #"{"class":"TPV","mode":3,"lat":91,"lon":2}"#,
            "not json", "",
        ] {
            #expect(GPSDReport.location(fromLine: line) == nil, Comment(rawValue: line))
        }
    }

    @Test func testTheConfigurationComesFromTheEnvironment() {
        let plain = LocationManager.Configuration.fromEnvironment([:])
        #expect(plain.host == "127.0.0.1")
        #expect(plain.port == 2947)
        #expect(plain.fixedCoordinate == LocationCoordinate2D(latitude: 37.5665, longitude: 126.9780))
        let set = LocationManager.Configuration.fromEnvironment([
            "RX_GPSD": "gps.local:3000", "RX_FIXED_LOCATION": " 35.1796 , 129.0756 ",
        ])
        #expect(set.host == "gps.local")
        #expect(set.port == 3000)
        #expect(set.fixedCoordinate == LocationCoordinate2D(latitude: 35.1796, longitude: 129.0756))
        let ipv6 = LocationManager.Configuration.fromEnvironment([
            "RX_GPSD": "[::1]:2948", "RX_FIXED_LOCATION": "100,0",
        ])
        #expect(ipv6.host == "::1")
        #expect(ipv6.port == 2948)
        #expect(ipv6.fixedCoordinate == plain.fixedCoordinate)  // latitude 100 is ignored
        #expect(LocationManager.Configuration.fromEnvironment(["RX_GPSD": "gpshost"]).host == "gpshost")
    }

    /// The RxSwift book's pipeline (`map { $0[0] }`, the accuracy filter, `take(1)` per tap) on
    /// updates delivered in virtual time, with the delegate the application had still called.
    @Test func testRxDidUpdateLocationsAndTheForwardDelegateBothHearEveryUpdate() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let manager = LocationManager(configuration: .init(port: 1), scheduler: scheduler)
        let original = RecordingDelegate()
        manager.delegate = original
        let updates = scheduler.createObserver([Location].self)
        manager.rx.didUpdateLocations.subscribe(updates).disposed(by: bag)
        let firstGood = scheduler.createObserver(LocationCoordinate2D.self)
        manager.rx.didUpdateLocations.map { $0[0] }
            .filter { $0.horizontalAccuracy < kLocationAccuracyHundredMeters }
            .take(1).map(\.coordinate)
            .subscribe(firstGood).disposed(by: bag)

        let rough = Location(coordinate: .init(latitude: 1, longitude: 1), horizontalAccuracy: 500)
        let good = Location(coordinate: .init(latitude: 2, longitude: 2), horizontalAccuracy: 10)
        scheduler.scheduleAt(210) { manager.handle(.location(rough), generation: manager.generation) }
        scheduler.scheduleAt(220) { manager.handle(.location(good), generation: manager.generation) }
        scheduler.start()

        #expect(updates.events == [.next(210, [rough]), .next(220, [good])])
        #expect(firstGood.events == [.next(220, good.coordinate), .completed(220)])
        #expect(original.log == ["locations [1.0]", "locations [2.0]"])
        #expect(manager.delegate === RxLocationManagerDelegateProxy.proxy(for: manager))
        #expect(manager.location == good)
    }

    /// No gpsd: the error, then the fixed location, in that order, both through the proxy and to the
    /// forward delegate; the location passes the book's accuracy filter.
    @Test func testNoGPSDGivesTheErrorThenTheFixedLocation() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let fixed = LocationCoordinate2D(latitude: 35.1796, longitude: 129.0756)
        let manager = LocationManager(configuration: .init(port: 9, fixedCoordinate: fixed), scheduler: scheduler)
        let forward = RecordingDelegate()
        manager.rx.setDelegate(forward).disposed(by: bag)
        var log: [String] = []
        manager.rx.didFailWithError.subscribe(onNext: { log.append("error \($0)") }).disposed(by: bag)
        manager.rx.didUpdateLocations
            .subscribe(onNext: { log.append("location \($0.map(\.coordinate.latitude)) ±\($0[0].horizontalAccuracy)") })
            .disposed(by: bag)
        scheduler.scheduleAt(300) {
            manager.handle(.unreachable(reason: "Connection refused"), generation: manager.generation)
        }
        scheduler.start()

        let error = "no gpsd at 127.0.0.1:9 (Connection refused); using the fixed location"
        #expect(log == ["error \(error)", "location [35.1796] ±0.0"])
        #expect(forward.log == ["error \(error)", "locations [35.1796]"])
    }

    @Test func testOneProxyPerManagerReleasedWithItsManager() {
        var manager: LocationManager? = LocationManager(configuration: .init(port: 1))
        let other = LocationManager(configuration: .init(port: 1))
        weak var weakProxy: RxLocationManagerDelegateProxy?
        do {
            let proxy = RxLocationManagerDelegateProxy.proxy(for: manager!)
            #expect(RxLocationManagerDelegateProxy.proxy(for: manager!) === proxy)
            #expect(manager!.rx.delegate === proxy)
            #expect(manager!.delegate === proxy)
            #expect(other.rx.delegate !== proxy)
            weakProxy = proxy
        }
        var completed = 0
        let updates = manager!.rx.didUpdateLocations.subscribe(onCompleted: { completed += 1 })
        let errors = manager!.rx.didFailWithError.subscribe(onCompleted: { completed += 1 })
        manager = nil
        // The proxy table lets go of a gone manager's proxy the next time it is used (or on its sweep
        // of the main queue).
        _ = RxLocationManagerDelegateProxy.proxy(for: other)
        #expect(weakProxy == nil)
        #expect(completed == 2)
        updates.dispose()
        errors.dispose()
    }

    /// Events of a connection that was stopped (still on their way to the scheduler) are dropped.
    @Test func testEventsOfAStoppedConnectionAreDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let manager = LocationManager(configuration: .init(port: 1), scheduler: scheduler)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        let stale = manager.generation
        manager.stopUpdatingLocation()
        manager.handle(.location(Location(coordinate: .init(latitude: 1, longitude: 1))), generation: stale)
        #expect(delegate.log == [])
        #expect(!manager.isUpdatingLocation)
    }
}
