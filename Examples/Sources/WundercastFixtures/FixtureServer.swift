import FixtureHTTP
import FlyingFox
import Foundation

/// An offline OpenWeatherMap: a real HTTP server on a free loopback port that answers
/// `GET /data/2.5/weather` as the service does, so Wundercast runs without a key or a network and still
/// talks HTTP through `URLSession.rx`.
///
/// - `q=City` knows the world's capitals and the big countries' larger cities (``Gazetteer``, some 570
///   places) as the service matches names: case, accents and surrounding spaces do not matter,
///   `City,CC` and `City,State,CC` name the country, and a name several places share finds the capital
///   or the bigger one. The thirteen recorded cities (``FixtureCity/all``) answer their recorded
///   bodies, the others a body of the same shape with weather made up from their coordinate. Any other
///   name, or a country the city is not in, answers 404 `{"cod":"404","message":"city not found"}`;
///   a blank one 400 "Nothing to geocode".
/// - `lat=…&lon=…` answers the weather at that point: the recorded city's when one is within half a
///   degree, a gazetteer city's at its own coordinate (where a map centred on it asks), otherwise
///   weather made up from the coordinate (the same point always gets the same weather) with the
///   open-ocean shape (`"name":""`, `"id":0`); out of range is 400 "wrong latitude".
/// - An `appid` other than ``apiKey`` is 401 with the service's body.
/// - To see the other failures: `q=error:429` (the service's rate-limit body), `q=error:500`,
///   `q=error:malformed` (200 with a body that is not JSON).
///
/// Every answer comes after ``delay`` (so the activity indicator is seen), sent as JSON's insignificant
/// leading whitespace a little at a time: a client that goes away meanwhile makes a write fail, and the
/// server counts the answer as abandoned (``Counters/abandoned``), which is how tests see that
/// disposing a search cancels its request.
public final class FixtureServer: Sendable {
    /// The key the fixture accepts; the program passes it when it runs offline.
    public static let apiKey = "offline-fixture"

    private let http: LoopbackServer
    /// What the server has seen.
    public let counters: Counters

    /// The port the kernel gave the server.
    public var port: UInt16 { http.port }
    /// The base URL to give ``ApiController`` (`http://127.0.0.1:PORT/data/2.5`).
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/data/2.5")! }

    /// Starts a server answering after `delay` (a fixed delay, or, with `nil`, 300–600 ms depending on
    /// the request, like a real service's) and waits until it listens. Blocks the calling thread, never
    /// the server's. With a `requestBudget`, the requests after that many are answered as the service
    /// answers a key over its plan's limit (429), which is how tests fail some points of a grid.
    public static func start(delay: Duration? = nil, requestBudget: Int? = nil) throws -> FixtureServer {
        let counters = Counters()
        let http = try LoopbackServer.start { server in
            await server.appendRoute("GET /data/2.5/weather") { request in
                answer(request, delay: delay, requestBudget: requestBudget, counters: counters)
            }
        }
        return FixtureServer(http: http, counters: counters)
    }

    private init(http: LoopbackServer, counters: Counters) {
        self.http = http
        self.counters = counters
    }

    /// Stops listening and closes every connection (what a test does to see a refused connection).
    public func stop() { http.stop() }

    // MARK: - Answers

    private static func answer(
        _ request: HTTPRequest, delay: Duration?, requestBudget: Int?, counters: Counters
    ) -> HTTPResponse {
        let query = request.query
        let number = counters.received(query: request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        let overBudget = requestBudget.map { number >= $0 } ?? false
        let (status, body) = reply(
            city: overBudget ? "error:429" : query["q"], lat: query["lat"], lon: query["lon"], appid: query["appid"])
        let wait = delay ?? .milliseconds(300 + abs(stableHash(request.query.description)) % 301)
        let headers: HTTPHeaders = [.contentType: "application/json; charset=utf-8"]
        return HTTPResponse(
            statusCode: HTTPStatusCode(status), headers: headers,
            body: DelayedBody(Data(body.utf8), delay: wait, counters: counters.answers).sequence)
    }

    /// The status and body OpenWeatherMap would send.
    static func reply(city: String?, lat: String?, lon: String?, appid: String?) -> (Int, String) {
        guard appid == apiKey else {
            return (
                401,
                #"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#
            )
        }
        if let city {
            switch city {
            case "error:429":
                return (
                    429,
                    #"{"cod":429, "message": "Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription https://openweathermap.org/price"}"#
                )
            case "error:500": return (500, #"{"cod":500,"message":"Internal error"}"#)
            case "error:malformed": return (200, "<html><body>Bad gateway</body></html>")
            default: break
            }
            guard !city.trimmingCharacters(in: .whitespaces).isEmpty else {
                return (400, #"{"cod":"400","message":"Nothing to geocode"}"#)
            }
            guard let found = FixtureCity.named(city) else {
                return (404, #"{"cod":"404","message":"city not found"}"#)
            }
            return (200, found.body)
        }
        guard let latitude = lat.flatMap(Double.init), abs(latitude) <= 90 else {
            return (400, #"{"cod":"400","message":"wrong latitude"}"#)
        }
        guard let longitude = lon.flatMap(Double.init), abs(longitude) <= 180 else {
            return (400, #"{"cod":"400","message":"wrong longitude"}"#)
        }
        if let near = FixtureCity.near(latitude: latitude, longitude: longitude) {
            return (200, near.body)
        }
        return (200, FixtureCity.madeUpBody(latitude: latitude, longitude: longitude))
    }

    /// What the server has seen: the queries in a ``RequestLog``, the answers in ``AnswerCounters``
    /// (``AnswerCounting`` reads them).
    public final class Counters: AnswerCounting {
        private let log = RequestLog()
        public let answers = AnswerCounters()

        /// Logs a request; returns how many came before it.
        func received(query: String) -> Int { log.record(query) }

        /// The query strings of the requests received, in order.
        public var queries: [String] { log.all }
    }
}
