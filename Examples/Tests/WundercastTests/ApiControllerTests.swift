import ExampleTestSupport
import Foundation
import RxCocoa
import RxSwift
import TerminalUI
import XCTest

@testable import Wundercast
@testable import WundercastFixtures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `ApiController` over real HTTP against the fixture server: every recorded city, a gazetteer
/// city however it is typed, coordinates, the grid around a point (its concurrency, its failed points,
/// its cancellation), each failure the service has, a refused connection, and cancellation.
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

    /// A city of the gazetteer, not recorded: found over HTTP however it is typed, at its coordinate;
    /// a country it is not in is the service's 404.
    func testAGazetteerCityAsPeopleTypeIt() throws {
        let oslo = try weather(api.currentWeather(city: "Oslo"))
        XCTAssertEqual(oslo.cityName, "Oslo")
        XCTAssertEqual(oslo.coordinate.latitude, 59.91, accuracy: 0.01)
        XCTAssertEqual(oslo.coordinate.longitude, 10.75, accuracy: 0.01)
        XCTAssertEqual(try weather(api.currentWeather(city: " OSLO ")), oslo)
        XCTAssertEqual(try weather(api.currentWeather(city: "sao paulo")).cityName, "São Paulo")
        XCTAssertEqual(try weather(api.currentWeather(city: "Zurich")).cityName, "Zürich")
        XCTAssertEqual(try weather(api.currentWeather(city: "Paris, fr")).cityName, "Paris")
        XCTAssertEqual(
            error(api.currentWeather(city: "Paris,DE")), .cityNotFound(city: "Paris,DE", message: "city not found"))
    }

    /// The body over HTTP names the country and timezone as the service's does.
    func testAGazetteerCitysBodyNamesItsCountry() throws {
        var components = URLComponents(
            url: server.baseURL.appendingPathComponent("weather"), resolvingAgainstBaseURL: false)!
        components.queryItems = [.init(name: "q", value: "Oslo,NO"), .init(name: "appid", value: FixtureServer.apiKey)]
        let data = try XCTUnwrap(
            ExampleTestSupport.result(URLSession.shared.rx.data(request: URLRequest(url: components.url!)))
        ).get()
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual((body["sys"] as? [String: Any])?["country"] as? String, "NO")
        XCTAssertEqual(body["timezone"] as? Int, 3600)
        XCTAssertEqual(body["name"] as? String, "Oslo")
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

    /// The grid's points, as they came, once it completes.
    private func grid(_ observable: Observable<GridPoint>, line: UInt = #line) throws -> [GridPoint] {
        try XCTUnwrap(ExampleTestSupport.result(observable.toArray().asObservable(), line: line)).get()
    }

    private func weathers(_ points: [GridPoint]) -> [Weather] {
        points.compactMap { point in
            guard case .arrived(let weather) = point else { return nil }
            return weather
        }
    }

    func testWeatherAroundIsAnEightRequestGrid() throws {
        let points = try grid(api.currentWeatherAround(lat: 51.5085, lon: -0.1257, spacing: 5))
        let around = weathers(points)
        XCTAssertEqual(around.count, 8)
        // The made-up points come back rounded to a hundredth of a degree, as the service's coordinates are;
        // the centre is not among them (it is the map's single-point search).
        XCTAssertEqual(Set(around.map(\.coordinate.latitude)), [46.51, 51.51, 56.51])
        XCTAssertEqual(Set(around.map(\.coordinate.longitude)), [-5.13, -0.13, 4.87])
        XCTAssertFalse(around.contains { $0.cityName == "London" })
        XCTAssertEqual(server.counters.queries.count, 8)
        // Around the antimeridian the grid wraps.
        let wrapped = weathers(try grid(api.currentWeatherAround(lat: 0, lon: 179, spacing: 2)))
        XCTAssertEqual(Set(wrapped.map(\.coordinate.longitude)), [177, 179, -179])
    }

    /// At most three requests of a grid reach the server at once (`merge(maxConcurrent:)`): the server,
    /// answering each after 600 ms (long enough for three to overlap however loaded the machine), never
    /// has more than three under way, and has had three.
    func testAGridHasAtMostThreeRequestsInFlight() throws {
        server.stop()
        server = try FixtureServer.start(delay: .milliseconds(600))
        api = ApiController(baseURL: server.baseURL, apiKey: FixtureServer.apiKey)
        let started = Date()
        let points = try grid(api.currentWeatherAround(lat: 0, lon: -30, spacing: 5))
        XCTAssertEqual(weathers(points).count, 8)
        XCTAssertEqual(server.counters.maxInFlight, ApiController.gridConcurrency)
        XCTAssertEqual(ApiController.gridConcurrency, 3)
        XCTAssertEqual(server.counters.completed, 8)
        // Three rounds of 600 ms (8 = 3 + 3 + 2), not one.
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1.8)
    }

    /// Points that fail are marked as failed, each with its error; the others arrive: a key over its
    /// limit after five requests leaves five points and three failures, not an empty grid.
    func testAFailedPointLeavesTheOthers() throws {
        server.stop()
        server = try FixtureServer.start(delay: .zero, requestBudget: 5)
        api = ApiController(baseURL: server.baseURL, apiKey: FixtureServer.apiKey)
        let points = try grid(api.currentWeatherAround(lat: 0, lon: -30, spacing: 5))
        XCTAssertEqual(points.count, 8)
        XCTAssertEqual(weathers(points).count, 5)
        let failed = points.compactMap { point -> (LocationCoordinate2D, ApiError)? in
            guard case .failed(let coordinate, let error) = point else { return nil }
            return (coordinate, error)
        }
        XCTAssertEqual(failed.count, 3)
        for (_, error) in failed {
            guard case .rateLimited = error else { return XCTFail("\(error) is not a rate limit") }
        }
        // Each failure is at a point of the grid that did not arrive.
        let expected = Set(gridPoints(lat: 0, lon: -30, spacing: 5).map { "\($0.latitude),\($0.longitude)" })
        let arrived = Set(weathers(points).map { "\($0.coordinate.latitude),\($0.coordinate.longitude)" })
        let failedAt = Set(failed.map { "\($0.0.latitude),\($0.0.longitude)" })
        XCTAssertEqual(failedAt.count, 3)
        XCTAssertEqual(failedAt.union(arrived), expected)
    }

    /// A new centre disposes of the grid still loading, as the view controller's `flatMapLatest` does:
    /// the server sees the three requests under way abandoned, and none of the five the first grid had
    /// not started is sent in their place (nor any of the second's, once it is disposed).
    func testANewCentreCancelsTheGridStillLoading() throws {
        server.stop()
        server = try FixtureServer.start(delay: .seconds(3))
        api = ApiController(baseURL: server.baseURL, apiKey: FixtureServer.apiKey)
        let centres = PublishSubject<Double>()
        let points = Locked<[GridPoint]>([])
        let subscription = centres.flatMapLatest { [api] longitude in
            api!.currentWeatherAround(lat: 0, lon: longitude, spacing: 5)
        }
        .subscribe(onNext: { point in points.set(points.get() + [point]) })
        defer { subscription.dispose() }

        centres.onNext(-30)
        guard waitUntil({ self.server.counters.queries.count == 3 }) else {
            return XCTFail("the first grid never reached the server")
        }
        centres.onNext(60)
        guard waitUntil({ self.server.counters.abandoned == 3 && self.server.counters.queries.count == 6 }) else {
            return XCTFail("the first grid was not cancelled: \(server.counters.queries)")
        }
        // The first three around the first centre, the next three around the second.
        let longitudes = server.counters.queries.map { query in
            query.split(separator: "&").first { $0.hasPrefix("lon=") }.flatMap { Double($0.dropFirst(4)) } ?? .nan
        }
        XCTAssertTrue(longitudes.prefix(3).allSatisfy { [-35, -30, -25].contains($0) }, "\(longitudes)")
        XCTAssertTrue(longitudes.suffix(3).allSatisfy { [55, 60, 65].contains($0) }, "\(longitudes)")
        subscription.dispose()
        guard waitUntil({ self.server.counters.abandoned == 6 }) else {
            return XCTFail("the second grid was not cancelled")
        }
        // Nothing more was sent, nothing arrived.
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(server.counters.queries.count, 6)
        XCTAssertEqual(server.counters.completed, 0)
        XCTAssertEqual(points.get(), [])
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
