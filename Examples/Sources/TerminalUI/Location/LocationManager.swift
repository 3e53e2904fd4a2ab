import Foundation
import RxSwift

/// What a ``LocationManager`` tells its delegate (`CLLocationManagerDelegate`). Both methods are
/// optional, as in Core Location: the protocol extension does nothing.
///
/// Nonisolated, as `CLLocationManagerDelegate` is in Apple's current SDK (`protocol
/// CLLocationManagerDelegate : NSObjectProtocol`, no global actor; Core Location calls it on the
/// thread the manager was made on). The manager here is `@MainActor` and calls it there, so a main
/// actor type conforms with an isolated conformance, `@MainActor LocationManagerDelegate` (SE-0470),
/// as a Swift 6 app conforms to `CLLocationManagerDelegate`.
public protocol LocationManagerDelegate: AnyObject {
    /// New locations arrived, oldest first (one per gpsd report here).
    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location])
    /// Something went wrong; updates go on unless the error says they stopped (``LocationError``).
    func locationManager(_ manager: LocationManager, didFailWithError error: Error)
}

extension LocationManagerDelegate {
    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {}
    public func locationManager(_ manager: LocationManager, didFailWithError error: Error) {}
}

/// The device's position (`CLLocationManager`), from gpsd, the Linux location daemon.
///
/// ``startUpdatingLocation()`` connects to gpsd's TCP port, sends `?WATCH={"enable":true,"json":true}`
/// and turns every TPV report with a 2D or 3D fix into a ``Location`` for
/// `locationManager(_:didUpdateLocations:)`. Calls to the delegate are made on `scheduler` (the main
/// queue by default, where the RxSwift book's code runs), never synchronously inside a start call:
/// the book starts updates in a `do(onNext:)` and subscribes right after, in the same turn.
///
/// When no gpsd answers (nothing listens, the connection times out, or the peer says nothing within
/// ``Configuration/answerTimeout``), the delegate gets ``LocationError/gpsdUnreachable(host:port:reason:)``
/// through `locationManager(_:didFailWithError:)` and then the fixed location
/// (``Configuration/fixedCoordinate``) through `locationManager(_:didUpdateLocations:)`, with a
/// `horizontalAccuracy` of 0. That is what the book's code needs: it takes
/// `rx.didUpdateLocations.map { $0[0] }.filter { $0.horizontalAccuracy < kCLLocationAccuracyHundredMeters }
/// .take(1)` after each tap, so a location must follow the error, and it must pass that filter. Like
/// Core Location's `kCLErrorLocationUnknown`, the error does not end anything.
///
/// Calling ``startUpdatingLocation()`` again while updating (the book calls it on every tap)
/// delivers the last location again, as Core Location does, so a second tap is answered too.
///
/// On the main actor, as the views it feeds are; `scheduler` must deliver there (the main queue, or in
/// tests a `TestScheduler` run from the main actor).
@MainActor
open class LocationManager: ReactiveCompatible {
    /// Where gpsd is and what to report without it.
    public struct Configuration: Sendable {
        /// gpsd's host, a name or an address.
        public var host: String
        /// gpsd's TCP port.
        public var port: UInt16
        /// The position reported when no gpsd answers.
        public var fixedCoordinate: LocationCoordinate2D
        /// How long a connection attempt and gpsd's greeting may take before gpsd counts as absent.
        public var answerTimeout: Duration

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1", port: UInt16 = 2947,
            fixedCoordinate: LocationCoordinate2D = Configuration.defaultFixedCoordinate,
            answerTimeout: Duration = .seconds(2)
        ) {
            self.host = host
            self.port = port
            self.fixedCoordinate = fixedCoordinate
            self.answerTimeout = answerTimeout
        }

        /// Seoul City Hall (37.5665 N, 126.9780 E): a fixed place, in a city the examples' offline
        /// weather service knows.
        public static let defaultFixedCoordinate = LocationCoordinate2D(latitude: 37.5665, longitude: 126.9780)

        /// The configuration the environment asks for:
        /// - `RX_GPSD="host:port"` (or `"host"`, or `"[::1]:2947"`) where gpsd is, default `127.0.0.1:2947`;
        /// - `RX_FIXED_LOCATION="latitude,longitude"` in degrees, the position without gpsd, default
        ///   ``defaultFixedCoordinate``. A value that does not parse is ignored.
        public static func fromEnvironment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> Configuration {
            var configuration = Configuration()
            if let gpsd = environment["RX_GPSD"], !gpsd.isEmpty {
                let (host, port) = splitHostAndPort(gpsd)
                configuration.host = host
                if let port { configuration.port = port }
            }
            if let fixed = environment["RX_FIXED_LOCATION"].flatMap(parseCoordinate) {
                configuration.fixedCoordinate = fixed
            }
            return configuration
        }

        /// `"latitude,longitude"` as a coordinate, or `nil` if it is not two numbers in range.
        public static func parseCoordinate(_ text: String) -> LocationCoordinate2D? {
            let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                abs(latitude) <= 90, abs(longitude) <= 180
            else { return nil }
            return LocationCoordinate2D(latitude: latitude, longitude: longitude)
        }

        private static func splitHostAndPort(_ text: String) -> (String, UInt16?) {
            if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
                let host = String(text[text.index(after: text.startIndex)..<close])
                let rest = text[text.index(after: close)...]
                return (host, rest.hasPrefix(":") ? UInt16(rest.dropFirst()) : nil)
            }
            let parts = text.split(separator: ":")
            if parts.count == 2, let port = UInt16(parts[1]) { return (String(parts[0]), port) }
            return (text, nil)
        }
    }

    /// The delegate, held weakly (`CLLocationManager.delegate`).
    public weak var delegate: LocationManagerDelegate?

    /// Where gpsd is and the fixed location.
    public let configuration: Configuration

    /// The last location delivered, if any (`CLLocationManager.location`).
    public private(set) var location: Location?

    /// Whether ``startUpdatingLocation()`` was called and ``stopUpdatingLocation()`` not since.
    public var isUpdatingLocation: Bool { connection != nil || usingFixedLocation }

    private let scheduler: ImmediateSchedulerType
    private var connection: GPSDConnection?
    /// The current connection's events on their way to `scheduler`.
    private var reportSubscription: Disposable?
    /// Bumped on every start and stop, so events of an earlier connection still on their way to the
    /// scheduler are dropped.
    private(set) var generation = 0
    private var usingFixedLocation = false

    /// Creates a manager for gpsd as `configuration` says (by default, as the environment says), calling
    /// its delegate on `scheduler`. The default is `MainScheduler.asyncInstance`, not
    /// `MainScheduler.instance`, which runs at once when already on the main thread.
    public init(
        configuration: Configuration = .fromEnvironment(),
        scheduler: ImmediateSchedulerType = MainScheduler.asyncInstance
    ) {
        self.configuration = configuration
        self.scheduler = scheduler
    }

    deinit {
        connection?.stop()
        reportSubscription?.dispose()
    }

    /// Starts reporting locations (`CLLocationManager.startUpdatingLocation()`): connects to gpsd, or
    /// falls back to the fixed location. Called again while updating, it delivers the last location
    /// again. Open, as Core Location's is, so a test can stand in for gpsd.
    open func startUpdatingLocation() {
        if isUpdatingLocation {
            if let location { schedule(generation) { $0.deliver([location]) } }
            return
        }
        generation += 1
        let current = generation
        // The connection reports on its own thread; `observe(on:)` brings each event to the scheduler
        // (the main queue), where the manager lives, and there it is dropped unless the manager still
        // wants this connection's events.
        let reports = PublishSubject<GPSDConnection.Event>()
        reportSubscription?.dispose()
        reportSubscription = reports.observe(on: scheduler)
            .subscribe(onNext: { [weak self] event in self?.handle(event, generation: current) })
        let connection = GPSDConnection(
            host: configuration.host, port: configuration.port, answerTimeout: configuration.answerTimeout
        ) { event in reports.onNext(event) }
        self.connection = connection
        connection.start()
    }

    /// Stops reporting (`CLLocationManager.stopUpdatingLocation()`) and closes the connection.
    open func stopUpdatingLocation() {
        generation += 1
        usingFixedLocation = false
        connection?.stop()
        connection = nil
        reportSubscription?.dispose()
        reportSubscription = nil
    }

    func handle(_ event: GPSDConnection.Event, generation: Int) {
        guard generation == self.generation else { return }
        switch event {
        case .location(let location):
            deliver([location])
        case .unreachable(let reason):
            connection = nil
            usingFixedLocation = true
            let error = LocationError.gpsdUnreachable(
                host: configuration.host, port: configuration.port, reason: reason)
            delegate?.locationManager(self, didFailWithError: error)
            // The delegate may have stopped (or restarted) updates when it heard of the error.
            guard generation == self.generation else { return }
            deliver([Location(coordinate: configuration.fixedCoordinate, horizontalAccuracy: 0)])
        case .disconnected:
            connection = nil
            self.generation += 1
            delegate?.locationManager(
                self,
                didFailWithError: LocationError.gpsdDisconnected(host: configuration.host, port: configuration.port))
        }
    }

    func deliver(_ locations: [Location]) {
        guard let last = locations.last else { return }
        location = last
        delegate?.locationManager(self, didUpdateLocations: locations)
    }

    private func schedule(_ generation: Int, _ action: @escaping (LocationManager) -> Void) {
        _ = scheduler.schedule(()) { [weak self] _ in
            if let self, self.generation == generation { action(self) }
            return Disposables.create()
        }
    }
}
