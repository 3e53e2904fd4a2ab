import FixtureHTTP

/// Weather for a point the service has no recording of: warmer towards the equator, and the same every
/// time for the same point (rounded to a hundredth of a degree, as the service rounds coordinates).
struct MadeUpWeather {
    let latitude: Double
    let longitude: Double
    let conditionID: Int
    let main: String
    let description: String
    let icon: String
    let temperature: Double
    let humidity: Int
    let windSpeed: Double
    let windDegrees: Int
    let clouds: Int

    init(latitude: Double, longitude: Double) {
        let lat = (latitude * 100).rounded() / 100
        let lon = (longitude * 100).rounded() / 100
        let seed = abs(stableHash("\(lat),\(lon)"))
        let temperature = ((29 - 0.55 * abs(lat) + Double(seed % 80) / 10 - 4) * 100).rounded() / 100
        let conditions: [(Int, String, String, String)] = [
            (800, "Clear", "clear sky", "01d"), (801, "Clouds", "few clouds", "02d"),
            (803, "Clouds", "broken clouds", "04d"), (500, "Rain", "light rain", "10d"),
            (211, "Thunderstorm", "thunderstorm", "11d"), (701, "Mist", "mist", "50d"),
        ]
        var condition = conditions[seed / 11 % conditions.count]
        if temperature < 0 { condition = (600, "Snow", "light snow", "13d") }
        self.latitude = lat
        self.longitude = lon
        (conditionID, main, description, icon) = condition
        self.temperature = temperature
        humidity = 35 + seed / 7 % 60
        windSpeed = Double(seed % 120) / 10
        windDegrees = seed % 360
        clouds = seed % 100
    }
}

extension FixtureCity {
    /// A gazetteer city with weather made up from its coordinate, in the recorded cities' shape: its
    /// name, id, country and timezone, its own coordinate rather than the rounded one.
    init(madeUpAt place: Place) {
        let weather = MadeUpWeather(latitude: place.latitude, longitude: place.longitude)
        self.init(
            name: place.name, id: place.id, country: place.country, latitude: place.latitude,
            longitude: place.longitude, timezone: place.timezone, conditionID: weather.conditionID,
            main: weather.main, description: weather.description, icon: weather.icon,
            temperature: weather.temperature, humidity: weather.humidity, pressure: 1013,
            windSpeed: weather.windSpeed, windDegrees: weather.windDegrees, clouds: weather.clouds)
    }

    /// Weather for a point with no city, in the service's open-sea shape (`"name":""`, `"id":0`).
    static func madeUpBody(latitude: Double, longitude: Double) -> String {
        let weather = MadeUpWeather(latitude: latitude, longitude: longitude)
        let (lat, lon, temperature) = (weather.latitude, weather.longitude, weather.temperature)
        return
            #"{"coord":{"lon":\#(lon),"lat":\#(lat)},"weather":[{"id":\#(weather.conditionID),"main":"\#(weather.main)","description":"\#(weather.description)","icon":"\#(weather.icon)"}],"base":"stations","main":{"temp":\#(temperature),"feels_like":\#(temperature),"temp_min":\#(temperature),"temp_max":\#(temperature),"pressure":1013,"humidity":\#(weather.humidity),"sea_level":1013,"grnd_level":1012},"wind":{"speed":\#(weather.windSpeed),"deg":\#(weather.windDegrees)},"clouds":{"all":\#(weather.clouds)},"dt":1764040000,"sys":{"sunrise":1764003600,"sunset":1764039600},"timezone":0,"id":0,"name":"","cod":200}"#
    }
}
