import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An offline OpenWeatherMap: a real HTTP server on a free loopback port that answers
/// `GET /data/2.5/weather` as the service does, so Wundercast runs without a key or a network and still
/// talks HTTP through `URLSession.rx`.
///
/// - `q=City` for the recorded cities (``cities``; case and accents of the name do not matter) answers
///   their recorded-style body; any other name answers 404 `{"cod":"404","message":"city not found"}`.
/// - `lat=…&lon=…` answers the weather at that point: the recorded city's when one is within half a
///   degree, otherwise weather made up from the coordinate (the same point always gets the same
///   weather) with the open-ocean shape (`"name":""`, `"id":0`); out of range is 400 "wrong latitude".
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

    private let server: HTTPServer
    private let task: Task<Void, Error>
    /// The port the kernel gave the server.
    public let port: UInt16
    /// What the server has seen.
    public let counters: Counters

    /// The base URL to give ``ApiController`` (`http://127.0.0.1:PORT/data/2.5`).
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/data/2.5")! }

    /// Starts a server answering after `delay` (a fixed delay, or, with `nil`, 300–600 ms depending on
    /// the request, like a real service's) and waits until it listens. Blocks the calling thread, never
    /// the server's.
    public static func start(delay: Duration? = nil) throws -> FixtureServer {
        let box = Mutex<Result<FixtureServer, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let server = try await make(delay: delay)
                box.withLock { $0 = .success(server) }
            } catch {
                box.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success, let result = box.withLock({ $0 }) else {
            throw CocoaError(.featureUnsupported)
        }
        return try result.get()
    }

    private static func make(delay: Duration?) async throws -> FixtureServer {
        let counters = Counters()
        // `logger: .disabled`: the program draws the whole terminal; a log line would tear the screen.
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        await server.appendRoute("GET /data/2.5/weather") { request in
            answer(request, delay: delay, counters: counters)
        }
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 5)
        guard case .ip4(_, let port) = await server.listeningAddress else { throw CocoaError(.featureUnsupported) }
        return FixtureServer(server: server, task: task, port: port, counters: counters)
    }

    private init(server: HTTPServer, task: Task<Void, Error>, port: UInt16, counters: Counters) {
        self.server = server
        self.task = task
        self.port = port
        self.counters = counters
    }

    /// Stops listening and closes every connection (what a test does to see a refused connection).
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        let server = server
        let task = task
        Task {
            await server.stop(timeout: 0)
            task.cancel()
            done.signal()
        }
        _ = done.wait(timeout: .now() + 5)
    }

    // MARK: - Answers

    private static func answer(_ request: HTTPRequest, delay: Duration?, counters: Counters) -> HTTPResponse {
        let query = request.query
        counters.received(query: request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        let (status, body) = reply(
            city: query["q"], lat: query["lat"], lon: query["lon"], appid: query["appid"])
        let wait = delay ?? .milliseconds(300 + abs(stableHash(request.query.description)) % 301)
        let headers: HTTPHeaders = [.contentType: "application/json; charset=utf-8"]
        let bytes = DelayedBody(body: Data(body.utf8), delay: wait, counters: counters)
        return HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: HTTPURLResponse.localizedString(forStatusCode: status)),
            headers: headers, body: HTTPBodySequence(from: bytes, count: bytes.count))
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
            guard let recorded = FixtureCity.named(city) else {
                return (404, #"{"cod":"404","message":"city not found"}"#)
            }
            return (200, recorded.body)
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

    /// What the server has seen. Thread-safety: all state behind one lock, released before returning.
    public final class Counters: Sendable {
        private struct State {
            var queries: [String] = []
            var completed = 0
            var abandoned = 0
        }

        private let state = Mutex(State())

        func received(query: String) { state.withLock { $0.queries.append(query) } }
        func finished() { state.withLock { $0.completed += 1 } }
        func abandon() { state.withLock { $0.abandoned += 1 } }

        /// The query strings of the requests received, in order.
        public var queries: [String] { state.withLock { $0.queries } }
        /// Answers sent to the end.
        public var completed: Int { state.withLock { $0.completed } }
        /// Answers whose client went away before the end (the connection was closed: a cancelled request).
        public var abandoned: Int { state.withLock { $0.abandoned } }
    }
}

/// A hash that is the same in every run (Swift's `hashValue` is seeded per process).
func stableHash(_ text: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return Int(truncatingIfNeeded: hash >> 1)
}

/// A body that waits: its first bytes are spaces (insignificant before a JSON value) sent every 50 ms
/// until `delay` has passed, then the body. If the iterator is released before the end, the client went
/// away (the server could not write), and `counters` hear of it.
private struct DelayedBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    static let step = Duration.milliseconds(50)

    let body: Data
    let pauses: Int
    let counters: FixtureServer.Counters

    init(body: Data, delay: Duration, counters: FixtureServer.Counters) {
        self.body = body
        self.pauses = Int((delay / Self.step).rounded(.up))
        self.counters = counters
    }

    /// Bytes in all: a space per pause, then the body.
    var count: Int { pauses + body.count }

    func makeAsyncIterator() -> Iterator {
        Iterator(body: Array(body), pauses: pauses, progress: Progress(counters: counters))
    }

    /// Tells the counters how the answer ended when the server lets go of it.
    final class Progress: Sendable {
        let counters: FixtureServer.Counters
        let finished = Atomic(false)

        init(counters: FixtureServer.Counters) { self.counters = counters }

        deinit {
            if finished.load(ordering: .relaxed) { counters.finished() } else { counters.abandon() }
        }
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var body: [UInt8]
        var pauses: Int
        let progress: Progress

        init(body: [UInt8], pauses: Int, progress: Progress) {
            self.body = body
            self.pauses = pauses
            self.progress = progress
        }

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            if pauses > 0 {
                pauses -= 1
                try await Task.sleep(for: DelayedBody.step)
                return [0x20]
            }
            guard !body.isEmpty else {
                progress.finished.store(true, ordering: .relaxed)
                return nil
            }
            let taken = Array(body.prefix(Swift.max(1, count)))
            body.removeFirst(taken.count)
            // Marked on handing out the last bytes: the server stops asking once it has the length it
            // announced.
            if body.isEmpty { progress.finished.store(true, ordering: .relaxed) }
            return taken
        }
    }
}
