import Foundation

/// One position report, as `CLLocation`: where, how high, how sure, and when.
///
/// Accuracies follow Core Location's convention: a radius in metres, and a negative value means the
/// quantity is unknown (`verticalAccuracy < 0` for a 2D fix, which has no altitude). The RxSwift
/// book filters with `horizontalAccuracy < kCLLocationAccuracyHundredMeters`;
/// ``kLocationAccuracyHundredMeters`` is the same constant here.
public struct Location: Equatable, Sendable, CustomStringConvertible {
    /// The latitude and longitude.
    public var coordinate: LocationCoordinate2D
    /// Metres above mean sea level (0 when unknown; see ``verticalAccuracy``).
    public var altitude: Double
    /// The radius of uncertainty of ``coordinate`` in metres; negative when unknown.
    public var horizontalAccuracy: Double
    /// The uncertainty of ``altitude`` in metres; negative when there is no altitude (a 2D fix).
    public var verticalAccuracy: Double
    /// Metres per second over ground; negative when unknown.
    public var speed: Double
    /// Degrees clockwise from true north; negative when unknown.
    public var course: Double
    /// When the position was measured.
    public var timestamp: Date

    /// Creates a location; the defaults describe a bare 2D position with unknown extras.
    public init(
        coordinate: LocationCoordinate2D, altitude: Double = 0, horizontalAccuracy: Double = 0,
        verticalAccuracy: Double = -1, speed: Double = -1, course: Double = -1, timestamp: Date = Date()
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
    }

    /// `<+37.56650000,+126.97800000> +38.00m (±17.10m)`, close to `CLLocation.description`.
    public var description: String {
        let latitude = String(format: "%+.8f", coordinate.latitude)
        let longitude = String(format: "%+.8f", coordinate.longitude)
        return "<\(latitude),\(longitude)> \(String(format: "%+.2f", altitude))m "
            + "(±\(String(format: "%.2f", horizontalAccuracy))m)"
    }
}

/// 100 metres: `kCLLocationAccuracyHundredMeters`, which the RxSwift book compares
/// `horizontalAccuracy` with.
public let kLocationAccuracyHundredMeters: Double = 100

/// Why the location manager has no (real) location: reported through
/// `locationManager(_:didFailWithError:)`, which does not stop the manager, as Core Location's
/// `kCLErrorLocationUnknown` does not.
public enum LocationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No gpsd answered at `host`:`port` (refused, timed out, or silent); `reason` says which. The
    /// manager reports the fixed location after this error.
    case gpsdUnreachable(host: String, port: UInt16, reason: String)
    /// The connection to gpsd ended after it had answered; updates stop.
    case gpsdDisconnected(host: String, port: UInt16)

    public var description: String {
        switch self {
        case .gpsdUnreachable(let host, let port, let reason):
            return "no gpsd at \(host):\(port) (\(reason)); using the fixed location"
        case .gpsdDisconnected(let host, let port):
            return "gpsd at \(host):\(port) closed the connection"
        }
    }
}
