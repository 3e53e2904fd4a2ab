import Foundation
import Testing

@testable import WundercastFixtures

/// The offline server's gazetteer: its data, and `q=` answered from it as OpenWeatherMap answers
/// (`FixtureServer.reply`, without HTTP; `ApiControllerTests` asks the same over HTTP).
@Suite struct GazetteerTests {
    private static let notFound = #"{"cod":"404","message":"city not found"}"#

    private func reply(_ city: String) -> (Int, String) {
        FixtureServer.reply(city: city, lat: nil, lon: nil, appid: FixtureServer.apiKey)
    }

    /// The body of a 200 as JSON; nil (and a failed expectation) for any other answer.
    private func found(_ city: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any]? {
        let (status, body) = reply(city)
        #expect(status == 200, "\(city): \(body)", sourceLocation: sourceLocation)
        guard status == 200 else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }

    private func name(_ body: [String: Any]?) -> String? { body?["name"] as? String }
    private func country(_ body: [String: Any]?) -> String? { (body?["sys"] as? [String: Any])?["country"] as? String }
    private func coordinate(_ body: [String: Any]?) -> (lat: Double, lon: Double)? {
        guard let coord = body?["coord"] as? [String: Double], let lat = coord["lat"], let lon = coord["lon"] else {
            return nil
        }
        return (lat, lon)
    }

    /// Every key path of a JSON value ("main.temp", "weather.icon"), to compare two bodies' shapes.
    private func keyPaths(_ value: Any, prefix: String = "") -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: []) { paths, entry in
                let path = prefix.isEmpty ? entry.key : "\(prefix).\(entry.key)"
                paths.insert(path)
                paths.formUnion(keyPaths(entry.value, prefix: path))
            }
        }
        if let array = value as? [Any] { return array.reduce(into: []) { $0.formUnion(keyPaths($1, prefix: prefix)) } }
        return []
    }

    // MARK: - The data

    @Test func theGazetteerHasAFewHundredPlausiblePlaces() {
        let places = Gazetteer.places
        #expect(places.count >= 300)
        for place in places {
            #expect((-90...90).contains(place.latitude) && (-180...180).contains(place.longitude), "\(place)")
            #expect(place.country.count == 2 && place.country.allSatisfy { $0.isASCII && $0.isUppercase }, "\(place)")
            #expect(abs(place.timezone) <= 14 * 3600 && place.timezone % 900 == 0, "\(place)")
            #expect(!place.name.isEmpty && place.name == place.name.trimmingCharacters(in: .whitespaces))
        }
        // A name twice in one country could never be found the second time.
        let keys = places.map { "\(Gazetteer.fold($0.name)),\($0.country)" }
        #expect(Set(keys).count == keys.count, "\(Dictionary(grouping: keys) { $0 }.filter { $1.count > 1 }.keys)")
    }

    @Test func madeUpIdsAreUniqueAndNeverARecordedOne() {
        let ids = Gazetteer.places.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0 >= 100_000_000 })
        #expect(Set(ids).isDisjoint(with: FixtureCity.all.map(\.id)))
    }

    /// The recorded cities are in the gazetteer (so that its order decides between namesakes for them
    /// too), where the service puts them.
    @Test func everyRecordedCityIsInTheGazetteerWhereTheServicePutsIt() {
        for city in FixtureCity.all {
            let place = Gazetteer.places.first { $0.name == city.name && $0.country == city.country }
            #expect(place != nil, "\(city.name) is not in the gazetteer")
            guard let place else { continue }
            #expect(abs(place.latitude - city.latitude) < 0.1 && abs(place.longitude - city.longitude) < 0.1)
        }
    }

    /// A few places checked against an atlas: the signs of latitude and longitude, and the country.
    @Test(arguments: [
        ("Oslo", "NO", 59.91, 10.75), ("Buenos Aires", "AR", -34.61, -58.38), ("Wellington", "NZ", -41.29, 174.78),
        ("Honolulu", "US", 21.31, -157.86), ("Nuku'alofa", "TO", -21.14, -175.2), ("Funafuti", "TV", -8.52, 179.2),
        ("Lisbon", "PT", 38.72, -9.14), ("Reykjavik", "IS", 64.14, -21.9), ("Quito", "EC", -0.23, -78.52),
        ("Singapore", "SG", 1.29, 103.85), ("Cape Town", "ZA", -33.93, 18.42), ("Anchorage", "US", 61.22, -149.9),
    ])
    func placesAreWhereAnAtlasPutsThem(name: String, country: String, latitude: Double, longitude: Double) throws {
        let place = try #require(Gazetteer.place(matching: name))
        #expect(place.country == country)
        #expect(abs(place.latitude - latitude) < 0.05 && abs(place.longitude - longitude) < 0.05, "\(place)")
    }

    @Test func parseSkipsCommentsAndTakesAnEmptyOffsetAsUTC() {
        let text = "# a comment\nSomewhere\tZZ\t1.5\t-2.25\t\nElsewhere\tZZ\t-3\t4\t-12600\n"
        #expect(
            Gazetteer.parse(text) == [
                Place(name: "Somewhere", country: "ZZ", latitude: 1.5, longitude: -2.25, timezone: 0),
                Place(name: "Elsewhere", country: "ZZ", latitude: -3, longitude: 4, timezone: -12600),
            ])
    }

    // MARK: - q= as the service answers it

    @Test func osloIsFoundWithItsCountryCoordinateAndTimezone() throws {
        let oslo = found("Oslo")
        #expect(name(oslo) == "Oslo")
        #expect(country(oslo) == "NO")
        let at = try #require(coordinate(oslo))
        #expect(abs(at.lat - 59.91) < 0.01 && abs(at.lon - 10.75) < 0.01)
        #expect(oslo?["timezone"] as? Int == 3600)
        #expect(oslo?["id"] as? Int == Gazetteer.place(matching: "Oslo")?.id)
        #expect(oslo?["cod"] as? Int == 200)
        // The same weather every time.
        #expect(reply("Oslo") == reply("oslo"))
    }

    @Test func aMadeUpBodyHasTheRecordedShape() throws {
        let london = try #require(found("London"))
        let oslo = try #require(found("Oslo"))
        #expect(keyPaths(oslo) == keyPaths(london))
    }

    @Test(arguments: [
        ("oslo", "Oslo"), (" OSLO ", "Oslo"), ("São Paulo", "São Paulo"), ("sao paulo", "São Paulo"),
        ("Zürich", "Zürich"), ("zurich", "Zürich"), ("ZURICH", "Zürich"), ("Paris,FR", "Paris"),
        ("Paris, fr", "Paris"), ("lodz", "Łódź"), ("Nuku’alofa", "Nuku'alofa"), ("New York,NY,US", "New York"),
        // An empty country is no country.
        ("Oslo,", "Oslo"),
    ])
    func namesAreMatchedAsTheServiceMatchesThem(query: String, expected: String) {
        #expect(name(found(query)) == expected, "\(query)")
    }

    /// Namesakes: the capital or the bigger one first, a country for the others.
    @Test(arguments: [
        ("London", "GB"), ("London,CA", "CA"), ("London, ON, CA", "CA"), ("Hyderabad", "IN"), ("Hyderabad,PK", "PK"),
        ("San Jose", "CR"), ("San Jose,US", "US"), ("Valencia", "ES"), ("Valencia,VE", "VE"),
    ])
    func aNameSeveralPlacesShareFindsTheFirstUnlessACountrySays(query: String, expected: String) {
        #expect(country(found(query)) == expected, "\(query)")
    }

    @Test func londonOntarioIsInOntario() throws {
        let london = try #require(coordinate(found("London,CA")))
        #expect(abs(london.lat - 42.98) < 0.05 && abs(london.lon - -81.25) < 0.05)
    }

    @Test(arguments: ["Paris,DE", "Oslo,SE", "Atlantis", "Oslo,NO,SE", "Osl"])
    func anUnknownNameOrAWrongCountryIsTheServicesNotFound(query: String) {
        #expect(reply(query) == (404, Self.notFound), "\(query)")
    }

    @Test func aRecordedCityKeepsItsRecordedBody() throws {
        let london = try #require(FixtureCity.all.first { $0.name == "London" })
        #expect(reply("London") == (200, london.body))
        #expect(reply("london,gb") == (200, london.body))
        #expect(london.id == 2_643_743)
    }

    @Test func blankAndSpecialNamesAnswerAsBefore() {
        #expect(reply("") == (400, #"{"cod":"400","message":"Nothing to geocode"}"#))
        #expect(reply("   ") == (400, #"{"cod":"400","message":"Nothing to geocode"}"#))
        #expect(reply("error:500") == (500, #"{"cod":500,"message":"Internal error"}"#))
        #expect(reply("error:429").0 == 429)
    }

    // MARK: - lat/lon

    /// A map centred on a city found by name asks for its coordinate: the city is named, with the
    /// weather its name found; a point well away from it is still nameless.
    @Test func aGazetteerCitysOwnCoordinateNamesIt() throws {
        let place = try #require(Gazetteer.place(matching: "Oslo"))
        let atOslo = FixtureServer.reply(
            city: nil, lat: "\(place.latitude)", lon: "\(place.longitude)", appid: FixtureServer.apiKey)
        #expect(atOslo == reply("Oslo"))
        let (_, away) = FixtureServer.reply(city: nil, lat: "59.5", lon: "10.75", appid: FixtureServer.apiKey)
        #expect(away.contains(#""name":"""#))
    }
}
