import ExampleTestSupport
import Foundation
import RxSwift
import XCTest

@testable import Wundercast
@testable import WundercastFixtures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `ApiController` over real HTTP against the fixture server: every recorded city, coordinates,
/// the grid around a point, each failure the service has, a refused connection, and cancellation.
final class ApiControllerTests: XCTestCase {
    private var server: FixtureServer!
    private var api: ApiController!

    override func setUpWithError() throws {
        try super.setUpWithError()
        URLSession.rx.shouldLogRequest = { _ in false }
        server = try FixtureServer.start(delay: .zero)
        api = ApiController(baseURL: server.baseURL, apiKey: FixtureServer.apiKey)
    }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    /// The first element or the error of `observable` (the one answer of a request).
    private func result<T>(_ observable: Observable<T>, line: UInt = #line) -> Result<T, Error>? {
        ExampleTestSupport.result(observable.take(1), line: line)
    }

    private func weather(_ observable: Observable<Weather>, line: UInt = #line) throws -> Weather {
        try XCTUnwrap(result(observable, line: line)).get()
    }

    private func error<T>(_ observable: Observable<T>, line: UInt = #line) -> ApiError? {
        ExampleTestSupport.error(observable.take(1), line: line) as? ApiError
    }

    func testEveryRecordedCity() throws {
        for city in FixtureCity.all {
            let found = try weather(api.currentWeather(city: city.name))
            XCTAssertEqual(found.cityName, city.name)
            XCTAssertEqual(found.temperature, Int(city.temperature.rounded()))
            XCTAssertEqual(found.humidity, city.humidity)
            XCTAssertEqual(found.icon, iconNameToChar(icon: city.icon))
            XCTAssertEqual(found.coordinate.latitude, city.latitude)
            XCTAssertEqual(found.coordinate.longitude, city.longitude)
        }
        XCTAssertEqual(server.counters.queries.count, FixtureCity.all.count)
        XCTAssertEqual(server.counters.queries.first, "q=London&appid=\(FixtureServer.apiKey)&units=metric")
    }

    func testNamesAsPeopleTypeThem() throws {
        XCTAssertEqual(try weather(api.currentWeather(city: "reykjavík")).cityName, "Reykjavik")
        XCTAssertEqual(try weather(api.currentWeather(city: "rio de janeiro")).cityName, "Rio de Janeiro")
        XCTAssertEqual(try weather(api.currentWeather(city: "London,GB")).cityName, "London")
    }

    func testTheLondonBodyDecodesAsRecorded() throws {
        let london = try weather(api.currentWeather(city: "London"))
        XCTAssertEqual(
            london,
            Weather(
                cityName: "London", temperature: 12, humidity: 81, icon: "⛅",
                coordinate: .init(latitude: 51.5085, longitude: -0.1257)))
        // Codable both ways: what it encodes reads back the same.
        XCTAssertEqual(try JSONDecoder().decode(Weather.self, from: JSONEncoder().encode(london)), london)
    }

    func testCoordinates() throws {
        // Near a recorded city: that city, as the service names the nearest place.
        XCTAssertEqual(try weather(api.currentWeather(lat: 37.5665, lon: 126.978)).cityName, "Seoul")
        // Elsewhere: open water, the same weather every time for the same point.
        let sea = try weather(api.currentWeather(lat: -1, lon: -30))
        XCTAssertEqual(sea.cityName, "")
        XCTAssertEqual(sea.coordinate, .init(latitude: -1, longitude: -30))
        XCTAssertEqual(try weather(api.currentWeather(lat: -1, lon: -30)), sea)
        XCTAssertEqual(server.counters.queries.last, "lat=-1.0&lon=-30.0&appid=\(FixtureServer.apiKey)&units=metric")
        XCTAssertEqual(
            error(api.currentWeather(lat: 100, lon: 0)), .requestRejected(status: 400, message: "wrong latitude"))
    }

    func testWeatherAroundIsANineRequestGrid() throws {
        let grid = try XCTUnwrap(result(api.currentWeatherAround(lat: 51.5085, lon: -0.1257, spacing: 5))).get()
        XCTAssertEqual(grid.count, 9)
        // The made-up points come back rounded to a hundredth of a degree, as the service's coordinates are.
        XCTAssertEqual(Set(grid.map(\.coordinate.latitude)), [46.51, 51.51, 51.5085, 56.51])
        XCTAssertEqual(grid.filter { $0.cityName == "London" }.count, 1)
        XCTAssertEqual(server.counters.queries.count, 9)
        // Around the antimeridian the grid wraps.
        let wrapped = try XCTUnwrap(result(api.currentWeatherAround(lat: 0, lon: 179, spacing: 2))).get()
        XCTAssertEqual(Set(wrapped.map(\.coordinate.longitude)), [177, 179, -179])
    }

    func testUnknownCityIsTheServicesCityNotFound() {
        let failure = error(api.currentWeather(city: "Atlantis"))
        XCTAssertEqual(failure, .cityNotFound(city: "Atlantis", message: "city not found"))
        XCTAssertEqual(failure?.errorDescription, "Atlantis: city not found")
    }

    func testWrongKey() {
        let wrongKey = ApiController(baseURL: server.baseURL, apiKey: "not-a-key")
        XCTAssertEqual(
            error(wrongKey.currentWeather(city: "London")),
            .invalidKey(
                message: "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."))
    }

    func testRateLimitServerErrorAndMalformedBody() {
        guard case .rateLimited(let message)? = error(api.currentWeather(city: "error:429")) else {
            return XCTFail("not rate limited")
        }
        XCTAssertTrue(message.hasPrefix("Your account is temporary blocked"))
        XCTAssertEqual(error(api.currentWeather(city: "error:500")), .serverFailure(status: 500))
        XCTAssertEqual(
            error(api.currentWeather(city: "error:500"))?.errorDescription,
            "The weather service failed (500); try again later")
        XCTAssertEqual(error(api.currentWeather(city: "error:malformed")), .malformedResponse)
        XCTAssertEqual(
            error(api.currentWeather(city: "")), .requestRejected(status: 400, message: "Nothing to geocode"))
    }

    func testRefusedConnection() {
        server.stop()
        guard case .unreachable? = error(api.currentWeather(city: "London")) else {
            return XCTFail("not unreachable")
        }
    }

    /// Disposing of a search closes its connection: the server, still waiting out its delay, cannot
    /// write and counts the answer abandoned; nothing is delivered.
    func testDisposingCancelsTheRequest() throws {
        server.stop()
        server = try FixtureServer.start(delay: .seconds(3))
        api = ApiController(baseURL: server.baseURL, apiKey: FixtureServer.apiKey)
        let events = Locked<[String]>([])
        let subscription = api.currentWeather(city: "Paris")
            .subscribe { event in events.set(events.get() + ["\(event)"]) }
        guard waitUntil({ self.server.counters.queries.count == 1 }) else {
            return XCTFail("the request never reached the server")
        }
        subscription.dispose()
        guard waitUntil({ self.server.counters.abandoned == 1 }) else {
            return XCTFail("the server never saw the connection closed")
        }
        XCTAssertEqual(server.counters.completed, 0)
        XCTAssertEqual(events.get(), [])
    }
}
