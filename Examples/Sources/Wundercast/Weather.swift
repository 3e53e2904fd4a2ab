import TerminalUI

/// The weather at a place, as the book's `ApiController.Weather`: what the labels show and what the map
/// draws.
///
/// `Codable` in OpenWeatherMap's shape: it decodes the fields it needs from a `/data/2.5/weather` body
/// (`name`, `main.temp`, `main.humidity`, `weather[0].icon`, `coord`) and encodes the same subset, so
/// a `Weather` written by the fixture server reads back equal.
public struct Weather: Codable, Equatable, Sendable {
    public let cityName: String
    /// Degrees Celsius, rounded (the book's `Int`; the requests ask for `units=metric`).
    public let temperature: Int
    /// Per cent.
    public let humidity: Int
    /// The condition as a glyph (``iconNameToChar(icon:)`` of OpenWeatherMap's icon code).
    public let icon: String
    public let coordinate: LocationCoordinate2D

    public init(cityName: String, temperature: Int, humidity: Int, icon: String, coordinate: LocationCoordinate2D) {
        self.cityName = cityName
        self.temperature = temperature
        self.humidity = humidity
        self.icon = icon
        self.coordinate = coordinate
    }

    /// What a failed search shows (the book's `Weather.empty`): no city, so the labels read as blank
    /// and nothing is drawn or centred.
    public static let empty = Weather(
        cityName: "", temperature: 0, humidity: 0, icon: "", coordinate: LocationCoordinate2D())

    /// Whether this is ``empty``, the stand-in for a failed search.
    public var isEmpty: Bool { self == .empty }

    // MARK: - OpenWeatherMap's shape

    private enum CodingKeys: String, CodingKey {
        case name, main, weather, coord
    }
    private enum MainKeys: String, CodingKey {
        case temp, humidity
    }
    private enum ConditionKeys: String, CodingKey {
        case icon
    }
    private enum CoordinateKeys: String, CodingKey {
        case lat, lon
    }

    public init(from decoder: Decoder) throws {
        let body = try decoder.container(keyedBy: CodingKeys.self)
        let main = try body.nestedContainer(keyedBy: MainKeys.self, forKey: .main)
        var conditions = try body.nestedUnkeyedContainer(forKey: .weather)
        let condition = try conditions.nestedContainer(keyedBy: ConditionKeys.self)
        let coord = try body.nestedContainer(keyedBy: CoordinateKeys.self, forKey: .coord)
        cityName = try body.decode(String.self, forKey: .name)
        // Integral values come without decimals ("temp":-4) and humidity is an integer; both decode
        // as Double.
        temperature = Int(try main.decode(Double.self, forKey: .temp).rounded())
        humidity = Int(try main.decode(Double.self, forKey: .humidity).rounded())
        icon = iconNameToChar(icon: try condition.decode(String.self, forKey: .icon))
        coordinate = LocationCoordinate2D(
            latitude: try coord.decode(Double.self, forKey: .lat),
            longitude: try coord.decode(Double.self, forKey: .lon))
    }

    public func encode(to encoder: Encoder) throws {
        var body = encoder.container(keyedBy: CodingKeys.self)
        try body.encode(cityName, forKey: .name)
        var main = body.nestedContainer(keyedBy: MainKeys.self, forKey: .main)
        try main.encode(temperature, forKey: .temp)
        try main.encode(humidity, forKey: .humidity)
        var conditions = body.nestedUnkeyedContainer(forKey: .weather)
        var condition = conditions.nestedContainer(keyedBy: ConditionKeys.self)
        try condition.encode(iconCode(of: icon), forKey: .icon)
        var coord = body.nestedContainer(keyedBy: CoordinateKeys.self, forKey: .coord)
        try coord.encode(coordinate.latitude, forKey: .lat)
        try coord.encode(coordinate.longitude, forKey: .lon)
    }
}

/// The glyph of an OpenWeatherMap icon code ("01d" … "50n"), as the book's `iconNameToChar(icon:)`,
/// which picks a character of a weather font; a terminal has emoji instead. Only emoji that are wide
/// by default (Emoji_Presentation) are used, so that every terminal gives them two columns.
public func iconNameToChar(icon: String) -> String {
    let night = icon.hasSuffix("n")
    switch icon.prefix(2) {
    case "01": return night ? "🌙" : "🌞"
    case "02", "03", "04": return "⛅"
    case "09", "10": return "☔"
    case "11": return "⚡"
    case "13": return "⛄"
    case "50": return "🌁"
    default: return "❓"
    }
}

/// The icon code a glyph stands for (day codes; the inverse of ``iconNameToChar(icon:)`` where it can be).
func iconCode(of glyph: String) -> String {
    switch glyph {
    case "🌙": return "01n"
    case "🌞": return "01d"
    case "⛅": return "03d"
    case "☔": return "10d"
    case "⚡": return "11d"
    case "⛄": return "13d"
    case "🌁": return "50d"
    default: return ""
    }
}
