/// A city the fixture server answers for, with weather in the shape and style of recorded
/// OpenWeatherMap responses (`units=metric`). The thirteen recorded cities (``all``) have the
/// service's ids, coordinates and countries and one plausible afternoon each; the gazetteer's other
/// places (``Gazetteer``) have made-up ids and weather made up from their coordinate.
struct FixtureCity: Sendable {
    let name: String
    let id: Int
    let country: String
    let latitude: Double
    let longitude: Double
    let timezone: Int
    let conditionID: Int
    let main: String
    let description: String
    let icon: String
    let temperature: Double
    let humidity: Int
    let pressure: Int
    let windSpeed: Double
    let windDegrees: Int
    let clouds: Int

    static let all: [FixtureCity] = [
        FixtureCity(
            name: "London", id: 2_643_743, country: "GB", latitude: 51.5085, longitude: -0.1257, timezone: 0,
            conditionID: 803, main: "Clouds", description: "broken clouds", icon: "04d", temperature: 11.62,
            humidity: 81, pressure: 1012, windSpeed: 4.63, windDegrees: 240, clouds: 75),
        FixtureCity(
            name: "Berlin", id: 2_950_159, country: "DE", latitude: 52.5244, longitude: 13.4105, timezone: 3600,
            conditionID: 802, main: "Clouds", description: "scattered clouds", icon: "03d", temperature: 16.31,
            humidity: 41, pressure: 1017, windSpeed: 4.12, windDegrees: 200, clouds: 40),
        FixtureCity(
            name: "Seoul", id: 1_835_848, country: "KR", latitude: 37.5683, longitude: 126.9778, timezone: 32400,
            conditionID: 800, main: "Clear", description: "clear sky", icon: "01d", temperature: 21.76,
            humidity: 38, pressure: 1019, windSpeed: 2.06, windDegrees: 290, clouds: 0),
        FixtureCity(
            name: "Tokyo", id: 1_850_147, country: "JP", latitude: 35.6895, longitude: 139.6917, timezone: 32400,
            conditionID: 500, main: "Rain", description: "light rain", icon: "10d", temperature: 18.04,
            humidity: 88, pressure: 1008, windSpeed: 5.14, windDegrees: 30, clouds: 100),
        FixtureCity(
            name: "New York", id: 5_128_581, country: "US", latitude: 40.7143, longitude: -74.006, timezone: -14400,
            conditionID: 800, main: "Clear", description: "clear sky", icon: "01d", temperature: 24.5,
            humidity: 52, pressure: 1016, windSpeed: 3.6, windDegrees: 180, clouds: 1),
        FixtureCity(
            name: "Paris", id: 2_988_507, country: "FR", latitude: 48.8534, longitude: 2.3488, timezone: 3600,
            conditionID: 804, main: "Clouds", description: "overcast clouds", icon: "04d", temperature: 14.68,
            humidity: 47, pressure: 1015, windSpeed: 7.2, windDegrees: 220, clouds: 90),
        FixtureCity(
            name: "Sydney", id: 2_147_714, country: "AU", latitude: -33.8679, longitude: 151.2073, timezone: 36000,
            conditionID: 801, main: "Clouds", description: "few clouds", icon: "02n", temperature: 17.23,
            humidity: 72, pressure: 1021, windSpeed: 6.17, windDegrees: 160, clouds: 20),
        FixtureCity(
            name: "Cairo", id: 360_630, country: "EG", latitude: 30.0626, longitude: 31.2497, timezone: 7200,
            conditionID: 800, main: "Clear", description: "clear sky", icon: "01d", temperature: 33.42,
            humidity: 19, pressure: 1010, windSpeed: 4.63, windDegrees: 350, clouds: 0),
        FixtureCity(
            name: "Reykjavik", id: 3_413_829, country: "IS", latitude: 64.1355, longitude: -21.8954, timezone: 0,
            conditionID: 600, main: "Snow", description: "light snow", icon: "13d", temperature: -1.5,
            humidity: 86, pressure: 998, windSpeed: 9.77, windDegrees: 50, clouds: 75),
        FixtureCity(
            name: "Rio de Janeiro", id: 3_451_190, country: "BR", latitude: -22.9028, longitude: -43.2075,
            timezone: -10800, conditionID: 802, main: "Clouds", description: "scattered clouds", icon: "03d",
            temperature: 27.98, humidity: 69, pressure: 1013, windSpeed: 3.09, windDegrees: 140, clouds: 40),
        FixtureCity(
            name: "Mumbai", id: 1_275_339, country: "IN", latitude: 19.0144, longitude: 72.8479, timezone: 19800,
            conditionID: 721, main: "Haze", description: "haze", icon: "50d", temperature: 31.99, humidity: 66,
            pressure: 1009, windSpeed: 4.12, windDegrees: 270, clouds: 20),
        FixtureCity(
            name: "Nairobi", id: 184_745, country: "KE", latitude: -1.2833, longitude: 36.8167, timezone: 10800,
            conditionID: 211, main: "Thunderstorm", description: "thunderstorm", icon: "11d", temperature: 22.91,
            humidity: 64, pressure: 1018, windSpeed: 5.66, windDegrees: 90, clouds: 75),
        // Where the kit's gpsd test log ends (TerminalUI's Tests/Fixtures/four-fixes.nmea).
        FixtureCity(
            name: "Busan", id: 1_838_524, country: "KR", latitude: 35.1028, longitude: 129.0403, timezone: 32400,
            conditionID: 801, main: "Clouds", description: "few clouds", icon: "02d", temperature: 19.99,
            humidity: 55, pressure: 1020, windSpeed: 3.6, windDegrees: 40, clouds: 20),
    ]

    /// The city a `q=` names, matched as the service matches it (``Gazetteer/place(matching:)``).
    static func named(_ query: String) -> FixtureCity? {
        Gazetteer.place(matching: query).map(city(at:))
    }

    /// The city the service would name at a point, if any: a recorded city within half a degree, or a
    /// gazetteer city within a hundredth of one, which is where a map centred on a city found by name
    /// asks. Within half a degree of hundreds of places, many of the grid's points would answer with a
    /// city's coordinate instead of their own.
    static func near(latitude: Double, longitude: Double) -> FixtureCity? {
        func within(_ degrees: Double, _ place: (latitude: Double, longitude: Double)) -> Bool {
            abs(place.latitude - latitude) <= degrees && abs(place.longitude - longitude) <= degrees
        }
        if let recorded = all.first(where: { within(0.5, ($0.latitude, $0.longitude)) }) { return recorded }
        return Gazetteer.places.first { within(0.01, ($0.latitude, $0.longitude)) }.map(city(at:))
    }

    /// A recorded city keeps its recorded weather; the others' is made up.
    private static func city(at place: Place) -> FixtureCity {
        all.first { $0.name == place.name && $0.country == place.country } ?? FixtureCity(madeUpAt: place)
    }

    /// The body the service sends for this city.
    var body: String {
        #"{"coord":{"lon":\#(longitude),"lat":\#(latitude)},"weather":[{"id":\#(conditionID),"main":"\#(main)","description":"\#(description)","icon":"\#(icon)"}],"base":"stations","main":{"temp":\#(temperature),"feels_like":\#(temperature - 1),"temp_min":\#(temperature - 1.5),"temp_max":\#(temperature + 1.2),"pressure":\#(pressure),"humidity":\#(humidity)},"visibility":10000,"wind":{"speed":\#(windSpeed),"deg":\#(windDegrees)},"clouds":{"all":\#(clouds)},"dt":1764040000,"sys":{"type":2,"id":\#(id % 100_000),"country":"\#(country)","sunrise":1764003600,"sunset":1764039600},"timezone":\#(timezone),"id":\#(id),"name":"\#(name)","cod":200}"#
    }
}
