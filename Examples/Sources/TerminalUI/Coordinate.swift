/// An angle in degrees, as Core Location's `CLLocationDegrees`.
public typealias LocationDegrees = Double

/// A point on the Earth: latitude and longitude in degrees (WGS 84), as Core Location's
/// `CLLocationCoordinate2D`, so the RxSwift book's `location.coordinate.latitude` reads the same.
///
/// Shared by ``MapView`` (its centre, its overlays) and the location manager (its fixes).
public struct LocationCoordinate2D: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, -90…90.
    public var latitude: LocationDegrees
    /// Degrees east of Greenwich, -180…180.
    public var longitude: LocationDegrees

    /// The coordinate 0° N 0° E (`CLLocationCoordinate2D()`).
    public init() {
        self.init(latitude: 0, longitude: 0)
    }

    /// Creates a coordinate; nothing is clamped (see ``isValid``), as in Core Location.
    public init(latitude: LocationDegrees, longitude: LocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether the latitude is within -90…90 and the longitude within -180…180
    /// (`CLLocationCoordinate2DIsValid`).
    public var isValid: Bool {
        (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// `51.5074, -0.1278`: latitude, longitude.
    public var description: String { "\(latitude), \(longitude)" }
}
