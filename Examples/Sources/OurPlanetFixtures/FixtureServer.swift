import FixtureHTTP
import FlyingFox
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An offline EONET v3: a real HTTP server on a free loopback port answering `GET /api/v3/categories`
/// and `GET /api/v3/events?status=open|closed|all&days=N&category=ID` from ``FixtureData``, so OurPlanet
/// runs without a network and still talks HTTP through `URLSession.rx`.
///
/// - Dates are counted back from ``now`` (the moment the server started, unless given), so the same
///   request always gets the same events.
/// - Each answer comes after a delay that grows with its size (``delay(for:)``), so parallel downloads
///   and the progress bar are seen; it is sent as JSON's insignificant leading whitespace a little at a
///   time, so a client that goes away is noticed.
/// - ``Counters`` count requests and how many are in flight at once (``Counters/maxInFlight``), which
///   is how tests see that OurPlanet never has more than two.
/// - `failures` make chosen requests fail, by category id (or `categories` for the categories):
///   a status (`500`, `404`, …) or a body that is not JSON, always or only the first times
///   (``Failure/times(_:_:)``, `500x1`), to see a retry succeed.
public final class FixtureServer: Sendable {
    /// How a request is made to fail.
    public indirect enum Failure: Sendable, Equatable {
        /// An HTTP status with an HTML body, as EONET's front end sends.
        case status(Int)
        /// 200 with a body that is not JSON.
        case malformed
        /// The failure for the first `count` requests only; the next ones succeed.
        case times(Int, Failure)

        /// Reads `500`, `404`, `malformed`, and `500x1` (fails once).
        init?(_ text: String) {
            let parts = text.split(separator: "x")
            if parts.count == 2, let count = Int(parts[1]), count > 0, let failure = Failure(String(parts[0])) {
                self = .times(count, failure)
            } else if text == "malformed" {
                self = .malformed
            } else if let status = Int(text), (400...599).contains(status) {
                self = .status(status)
            } else {
                return nil
            }
        }
    }

    private let http: LoopbackServer
    /// What the server has seen.
    public let counters: Counters
    /// The moment the events' dates are counted back from.
    public let now: Date

    /// The port the kernel gave the server.
    public var port: UInt16 { http.port }
    /// The base URL to give ``EONET`` (`http://127.0.0.1:PORT/api/v3`).
    public var baseURL: String { "http://127.0.0.1:\(port)/api/v3" }

    /// Reads `OURPLANET_FIXTURE_FAIL`'s form, `floods=500,snow=malformed,categories=404`.
    public static func failures(from text: String) -> [String: Failure] {
        var failures: [String: Failure] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, let failure = Failure(parts[1]) { failures[parts[0]] = failure }
        }
        return failures
    }

    /// Starts a server and waits until it listens. `delay` replaces the size-dependent delay (tests
    /// pass `.zero`); `now` fixes the clock; `failures` by category id. Blocks the calling thread,
    /// never the server's.
    public static func start(
        delay: Duration? = nil, now: Date = Date(), failures: [String: Failure] = [:]
    ) throws -> FixtureServer {
        let counters = Counters()
        let failing = FailureCounts(failures)
        let failure: @Sendable (String) -> Failure? = { failing.next(for: $0) }
        let http = try LoopbackServer.start { server in
            let base = "/api/v3"
            await server.appendRoute(HTTPRoute("GET \(base)/categories")) { request in
                counters.started(request)
                let (status, body) = failure("categories").map(failedReply) ?? (200, categoriesBody(link: base))
                return answer(status: status, body: body, delay: delay ?? .milliseconds(400), counters: counters)
            }
            await server.appendRoute(HTTPRoute("GET \(base)/events")) { request in
                counters.started(request)
                let query = request.query
                let categories = query["category"].map { $0.split(separator: ",").map(String.init) }
                let (status, body) =
                    // Asked once per category, in order, until one fails (a lazy `compactMap(...).first`
                    // would ask twice, and a failure that counts its uses would be counted twice).
                    categories.flatMap { ids in ids.firstNonNil(failure) }.map(failedReply)
                    ?? eventsReply(status: query["status"], days: query["days"], categories: categories, now: now)
                let wait = delay ?? Self.delay(for: body)
                return answer(status: status, body: body, delay: wait, counters: counters)
            }
        }
        return FixtureServer(http: http, counters: counters, now: now)
    }

    private init(http: LoopbackServer, counters: Counters, now: Date) {
        self.http = http
        self.counters = counters
        self.now = now
    }

    /// Stops listening and closes every connection (what a test does to see a refused connection).
    public func stop() { http.stop() }

    // MARK: - Answers

    /// 250 ms and 12 ms per kilobyte: a small category answers in a quarter of a second, the fires in
    /// about 0.4 s, so thirteen categories take a few seconds, two at a time.
    static func delay(for body: String) -> Duration {
        .milliseconds(250 + body.utf8.count * 12 / 1024)
    }

    private static func failedReply(_ failure: Failure) -> (Int, String) {
        switch failure {
        case .times(_, let failure):
            return failedReply(failure)
        case .status(let status):
            let phrase = HTTPURLResponse.localizedString(forStatusCode: status)
            return (
                status, "<html><head><title>\(status) \(phrase)</title></head><body><h1>\(phrase)</h1></body></html>"
            )
        case .malformed:
            return (200, "<html><body>Service temporarily unavailable</body></html>")
        }
    }

    private static func json(_ object: [String: Any]) -> String {
        // Only strings, numbers, arrays, dictionaries and NSNull go in, which always serialise.
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func categoriesBody(link base: String) -> String {
        json([
            "title": "EONET Event Categories",
            "description": "List of all the available event categories in the EONET system",
            "link": "https://eonet.gsfc.nasa.gov/api/v3/categories",
            "categories": FixtureData.categories.map { category in
                [
                    "id": category.id, "title": category.title, "description": category.description,
                    "link": "https://eonet.gsfc.nasa.gov/api/v3/categories/\(category.id)",
                    "layers": "https://eonet.gsfc.nasa.gov/api/v3/layers/\(category.id)",
                ]
            },
        ])
    }

    /// The events answer: those of `categories` (all without), open, closed or both, whose latest date
    /// (closed, else last observed) is within `days` of `now`. A status that is not one of the three is
    /// EONET's 400.
    static func eventsReply(status: String?, days: String?, categories: [String]?, now: Date) -> (Int, String) {
        let wanted: (FixtureData.Event) -> Bool
        switch status ?? "open" {
        case "open": wanted = { $0.closedDaysAgo == nil }
        case "closed": wanted = { $0.closedDaysAgo != nil }
        case "all": wanted = { _ in true }
        default: return (400, #"{"error":"Invalid status"}"#)
        }
        let limit = days.flatMap(Int.init)
        let events = FixtureData.events.filter { event in
            wanted(event)
                && (categories.map { Set($0).isDisjoint(with: event.categories) == false } ?? true)
                && (limit.map { (event.closedDaysAgo ?? event.daysAgo) < $0 } ?? true)
        }
        let body = json([
            "title": "EONET Events",
            "description": "Natural events from EONET.",
            "link": "https://eonet.gsfc.nasa.gov/api/v3/events",
            "events": events.map { eventJSON($0, now: now) },
        ])
        return (200, body)
    }

    /// An event in v3's shape: `closed` always present (null while open), `geometry` with magnitudes.
    static func eventJSON(_ event: FixtureData.Event, now: Date) -> [String: Any] {
        let titles = Dictionary(uniqueKeysWithValues: FixtureData.categories.map { ($0.id, $0.title) })
        let hash = stableHash(event.id)
        let longitude = Double(hash % 36_000) / 100 - 180
        let latitude = Double((hash / 36_000) % 14_000) / 100 - 70
        let geometry: [[String: Any]] = (0..<event.observations).map { step in
            let daysAgo = event.daysAgo + (event.observations - 1 - step)
            return [
                "magnitudeValue": NSNull(), "magnitudeUnit": NSNull(),
                "date": isoDate(now.addingTimeInterval(-Double(daysAgo) * 86_400 - Double(hash % 3_600))),
                "type": "Point",
                "coordinates": [longitude + Double(step) * 0.8, latitude + Double(step) * 0.5],
            ]
        }
        return [
            "id": event.id, "title": event.title, "description": event.description ?? NSNull(),
            "link": "https://eonet.gsfc.nasa.gov/api/v3/events/\(event.id)",
            "closed": event.closedDaysAgo.map { isoDate(now.addingTimeInterval(-Double($0) * 86_400)) } ?? NSNull(),
            "categories": event.categories.map { ["id": $0, "title": titles[$0] ?? $0] },
            "sources": [["id": event.source.id, "url": event.source.url]],
            "geometry": geometry,
        ]
    }

    /// EONET's date form, to the second, in UTC.
    private static func isoDate(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    private static func answer(status: Int, body: String, delay: Duration, counters: Counters) -> HTTPResponse {
        let contentType = status == 200 && body.hasPrefix("{") ? "application/json" : "text/html; charset=utf-8"
        return HTTPResponse(
            statusCode: HTTPStatusCode(status), headers: [.contentType: contentType],
            body: DelayedBody(Data(body.utf8), delay: delay, counters: counters.answers).sequence)
    }

    /// The failure for each request, counting those that stop after a few. Thread-safety: the counts
    /// behind a lock.
    final class FailureCounts: Sendable {
        private let failures: [String: Failure]
        private let failed = Mutex<[String: Int]>([:])

        init(_ failures: [String: Failure]) {
            self.failures = failures
        }

        /// How the next request for `key` fails, if it does.
        func next(for key: String) -> Failure? {
            failed.withLock { failed -> Failure? in
                switch failures[key] {
                case .times(let count, let failure)?:
                    guard failed[key, default: 0] < count else { return nil }
                    failed[key, default: 0] += 1
                    return failure
                case let other: return other
                }
            }
        }
    }

    /// What the server has seen: the requests in a ``RequestLog``, the answers in ``AnswerCounters``
    /// (``AnswerCounting`` reads them).
    public final class Counters: AnswerCounting {
        private let log = RequestLog()
        public let answers = AnswerCounters()

        func started(_ request: HTTPRequest) {
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            log.record(query.isEmpty ? request.path : "\(request.path)?\(query)")
        }

        /// The requests received (path and query), in order.
        public var requests: [String] { log.all }
    }
}

extension Sequence {
    /// The first non-nil `transform` of the elements, calling it once per element up to that one.
    fileprivate func firstNonNil<T>(_ transform: (Element) -> T?) -> T? {
        for element in self {
            if let value = transform(element) { return value }
        }
        return nil
    }
}
