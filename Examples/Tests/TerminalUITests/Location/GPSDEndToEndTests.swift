import ExampleTestSupport
import Foundation
import RxSwift
import TerminalUI
import XCTest

/// The location manager against a real gpsd: `gpsfake` (Debian's `gpsd-clients`, which runs `gpsd`
/// from the `gpsd` package) replays a committed NMEA log of four fixes on a free port, and the fixes
/// must arrive through `rx.didUpdateLocations`, on the main thread, in order (four in a row; the log
/// loops). And with nothing listening
/// on a port: the error and the fixed location, as the RxSwift book's code expects.
///
/// Skipped when gpsfake or gpsd is not installed (`.ci/run` installs both). gpsfake and the gpsd it
/// starts run in a process group of their own, which is killed (TERM, then KILL) when the test ends,
/// whatever the outcome; a `timeout` of 60 seconds ends them too if this process dies first.
final class GPSDEndToEndTests: XCTestCase {
    /// The log: a GGA and an RMC sentence per fix (Seoul City Hall, two points north-east of it, then
    /// Busan), one second apart on 2026-11-25 from 03:00:00 UTC.
    private static let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/four-fixes.nmea").path

    private static let fixes: [(latitude: Double, longitude: Double, altitude: Double)] = [
        (37.5665, 126.9780, 38.0), (37.5700, 126.9800, 40.5), (37.5750, 126.9850, 42.0), (35.1796, 129.0756, 12.0),
    ]

    func testFixesReplayedByGpsfakeArriveInOrder() throws {
        guard let gpsfake = ["/usr/bin/gpsfake", "/usr/local/bin/gpsfake"].first(where: isExecutable),
            ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd"].contains(where: isExecutable)
        else {
            throw XCTSkip("gpsfake and gpsd are not installed (apt-get install gpsd gpsd-clients)")
        }
        let port = try freePort()
        let started = Date()
        // gpsfake plays the log in a loop (gpsd reads its device only once a client watches, and drops
        // what was written before, so a single play could be over before the manager connects); the
        // test waits for the four fixes in a row. -c: a tenth of a second between sentences; -q: quiet.
        // `timeout` ends gpsfake (with SIGINT, on which it stops its gpsd) should this process die
        // before killing the group itself.
        let process = try SpawnedProcessGroup(
            "/usr/bin/timeout", ["-s", "INT", "60", gpsfake, "-q", "-c", "0.1", "-P", String(port), Self.log])
        defer { process.terminate() }
        // The manager connects once gpsd listens; the kernel's socket table says when, without a probe
        // connection (which would make gpsd open the device early).
        try waitUntilListening(on: port, timeout: 20, process: process)

        // The manager is the main actor's, and XCTest runs this method on the main thread.
        try MainActor.assumeIsolated {
            let manager = LocationManager(configuration: .init(port: port))
            let bag = DisposeBag()
            var locations: [Location] = []
            var errors: [String] = []
            var onMainThread = true
            manager.rx.didUpdateLocations
                .subscribe(onNext: {
                    onMainThread = onMainThread && Thread.isMainThread
                    locations += $0
                })
                .disposed(by: bag)
            manager.rx.didFailWithError.subscribe(onNext: { errors.append("\($0)") }).disposed(by: bag)
            manager.startUpdatingLocation()
            defer { manager.stopUpdatingLocation() }

            let deadline = Date().addingTimeInterval(20)
            while Self.inOrder(Self.distinct(locations)) == nil && errors.isEmpty && Date() < deadline {
                RunLoop.main.run(until: Date().addingTimeInterval(0.05))
            }
            let seconds = Date().timeIntervalSince(started)
            print("gpsd replay: \(locations.count) locations in \(String(format: "%.1f", seconds)) s")

            XCTAssertEqual(errors, [])
            XCTAssertTrue(onMainThread)
            let fixes = try XCTUnwrap(
                Self.inOrder(Self.distinct(locations)), "the four fixes never came in order: \(locations)")
            for (location, expected) in zip(fixes, Self.fixes) {
                XCTAssertEqual(location.altitude, expected.altitude, accuracy: 1e-6)
                XCTAssertLessThan(location.horizontalAccuracy, kLocationAccuracyHundredMeters)
            }
            // The reports carry the log's times, one second apart.
            XCTAssertEqual(
                fixes.map(\.timestamp.timeIntervalSince1970),
                [1_795_575_600, 1_795_575_601, 1_795_575_602, 1_795_575_603])
        }
    }

    /// The first run of the four fixes, in the log's order, as 3D fixes, in `locations`. (gpsd starts
    /// reading somewhere in the looping log; a fix it saw only the RMC sentence of is 2D, with no
    /// altitude.)
    private static func inOrder(_ locations: [Location]) -> ArraySlice<Location>? {
        func matches(_ location: Location, _ fix: (latitude: Double, longitude: Double, altitude: Double)) -> Bool {
            location.verticalAccuracy >= 0 && abs(location.coordinate.latitude - fix.latitude) < 1e-6
                && abs(location.coordinate.longitude - fix.longitude) < 1e-6
        }
        guard locations.count >= Self.fixes.count else { return nil }
        for start in 0...(locations.count - Self.fixes.count) {
            let run = locations[start..<(start + Self.fixes.count)]
            if zip(run, Self.fixes).allSatisfy(matches) { return run }
        }
        return nil
    }

    /// Nothing listens on the port: `didFailWithError` with the reason, then the fixed location (from
    /// the configuration, as `RX_FIXED_LOCATION` would set it) — the order in which the book's code
    /// (`.take(1)` of the accurate updates after a tap) gets its location.
    func testWithNoGPSDTheErrorAndThenTheFixedLocationArrive() throws {
        let port = try freePort()
        let fixed = LocationCoordinate2D(latitude: 33.4996, longitude: 126.5312)
        // The manager is the main actor's, and XCTest runs this method on the main thread.
        MainActor.assumeIsolated {
            let manager = LocationManager(configuration: .init(port: port, fixedCoordinate: fixed))
            let bag = DisposeBag()
            var log: [String] = []
            manager.rx.didFailWithError.subscribe(onNext: { log.append("error \($0)") }).disposed(by: bag)
            var firstLocation: Location?
            manager.rx.didUpdateLocations.map { $0[0] }
                .filter { $0.horizontalAccuracy < kLocationAccuracyHundredMeters }
                .take(1)
                .subscribe(onNext: {
                    firstLocation = $0
                    log.append("location \($0.coordinate.latitude),\($0.coordinate.longitude)")
                })
                .disposed(by: bag)
            manager.startUpdatingLocation()
            defer { manager.stopUpdatingLocation() }
            let deadline = Date().addingTimeInterval(10)
            while firstLocation == nil && Date() < deadline {
                RunLoop.main.run(until: Date().addingTimeInterval(0.02))
            }
            XCTAssertEqual(
                log,
                [
                    "error no gpsd at 127.0.0.1:\(port) (Connection refused); using the fixed location",
                    "location 33.4996,126.5312",
                ])
            XCTAssertEqual(manager.location?.coordinate, fixed)

            // A second tap (startUpdatingLocation again) is answered with the location again.
            var again: [LocationCoordinate2D] = []
            manager.rx.didUpdateLocations.subscribe(onNext: { again += $0.map(\.coordinate) }).disposed(by: bag)
            manager.startUpdatingLocation()
            XCTAssertEqual(again, [])  // never inside the call
            let second = Date().addingTimeInterval(5)
            while again.isEmpty && Date() < second {
                RunLoop.main.run(until: Date().addingTimeInterval(0.02))
            }
            XCTAssertEqual(again, [fixed])
        }
    }

    /// Something listens but never speaks (not gpsd, or a stuck one): after the answer timeout, the
    /// same error (with its reason) and the fixed location.
    func testASilentPeerCountsAsNoGPSD() throws {
        let (listener, port) = try listeningSocket()
        defer { close(listener) }
        // The manager is the main actor's, and XCTest runs this method on the main thread.
        MainActor.assumeIsolated {
            let manager = LocationManager(configuration: .init(port: port, answerTimeout: .milliseconds(200)))
            let bag = DisposeBag()
            var log: [String] = []
            manager.rx.didFailWithError.subscribe(onNext: { log.append("error \($0)") }).disposed(by: bag)
            manager.rx.didUpdateLocations.subscribe(onNext: { log.append("location \($0[0].coordinate)") })
                .disposed(by: bag)
            let started = Date()
            manager.startUpdatingLocation()
            defer { manager.stopUpdatingLocation() }
            while log.count < 2 && Date().timeIntervalSince(started) < 5 {
                RunLoop.main.run(until: Date().addingTimeInterval(0.02))
            }
            XCTAssertEqual(
                log,
                [
                    "error no gpsd at 127.0.0.1:\(port) (no answer); using the fixed location",
                    "location \(LocationManager.Configuration.defaultFixedCoordinate)",
                ])
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.2)
        }
    }

    /// A loopback socket listening on a free port, which never accepts (the kernel completes the
    /// connections all the same).
    private func listeningSocket() throws -> (Int32, UInt16) {
        let port = try freePort()
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard descriptor >= 0, bound, listen(descriptor, 4) == 0 else {
            close(descriptor)
            throw NSError(domain: "listen", code: Int(errno))
        }
        return (descriptor, port)
    }

    private func isExecutable(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }

    /// Consecutive locations at the same position collapsed into the last of them (the first report of
    /// a fix may lack the time, which the next report of it has).
    private static func distinct(_ locations: [Location]) -> [Location] {
        var result: [Location] = []
        for location in locations {
            if result.last?.coordinate == location.coordinate { result.removeLast() }
            result.append(location)
        }
        return result
    }
}
