/// A latitude and longitude in degrees (WGS 84), as `CLLocationCoordinate2D`.
public struct LocationCoordinate2D: Equatable, Hashable, Sendable {
    /// Degrees north of the equator (negative south).
    public var latitude: Double
    /// Degrees east of Greenwich (negative west).
    public var longitude: Double

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
