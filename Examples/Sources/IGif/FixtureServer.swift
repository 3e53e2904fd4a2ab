import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An offline Giphy: a real HTTP server on a free loopback port answering `GET /v1/gifs/search` as
/// Giphy does (the shapes, pagination and error bodies of `web-apis.md` §3), and serving the GIFs it
/// lists, so iGif runs without a key or a network and still talks HTTP through `URLSession.rx`.
///
/// - Every query finds a few dozen results (24...48, fixed per query), paged by `limit` (default 25, at
///   most 50) and `offset`; each has an id, a title and `images.original`/`fixed_height` renditions
///   whose `url` is `/media/<id>/200.gif` on this server, with the file's real size and dimensions. A
///   query containing `zzz` finds nothing.
/// - `api_key` other than ``apiKey``: 401 with Giphy's body. `q` empty or missing: 400; longer than 50
///   characters: 414; `offset` past 4999: 400.
/// - To see the other failures: `q=error:429` (the gateway's `{"message":"API rate limit exceeded"}`,
///   no `meta`), `q=error:500`, `q=error:malformed` (200 with a body that is not JSON).
/// - `/media/<id>/200.gif` sends a deterministic animated GIF made by ``FixtureGIF`` a tenth at a time
///   over ``mediaDelay`` (so the progress bar moves and a download can be cancelled midway); an id the
///   server never listed is 404 with Giphy's body. `/media/<id>/broken.gif` sends a GIF cut short.
/// - `/stats` reports the ``Counters`` as JSON, so an end-to-end test can see what the program asked.
public final class FixtureServer: Sendable {
    /// The key the fixture accepts; the program passes it when it runs offline.
    public static let apiKey = "offline-fixture"

    private let server: HTTPServer
    private let task: Task<Void, Error>
    /// The port the kernel gave the server.
    public let port: UInt16
    /// What the server has seen.
    public let counters: Counters

    /// The search endpoint to give ``ApiController``.
    public var searchURL: URL { URL(string: "http://127.0.0.1:\(port)/v1/gifs/search")! }
    /// The server's root.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts a server answering searches after `searchDelay` and sending each GIF over `mediaDelay`,
    /// and waits until it listens. Blocks the calling thread, never the server's.
    public static func start(
        searchDelay: Duration = .milliseconds(150), mediaDelay: Duration = .milliseconds(800)
    ) throws -> FixtureServer {
        let box = Mutex<Result<FixtureServer, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let server = try await make(searchDelay: searchDelay, mediaDelay: mediaDelay)
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

    private static func make(searchDelay: Duration, mediaDelay: Duration) async throws -> FixtureServer {
        let counters = Counters()
        // `logger: .disabled`: the program draws the whole terminal; a log line would tear the screen.
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        let port = Mutex<UInt16>(0)
        await server.appendRoute("GET /v1/gifs/search") { request in
            counters.searched(request.query["q"] ?? "")
            try await Task.sleep(for: searchDelay)
            let (status, body) = searchReply(
                query: request.query, mediaBase: "http://127.0.0.1:\(port.withLock { $0 })")
            return HTTPResponse(
                statusCode: HTTPStatusCode(status, phrase: HTTPURLResponse.localizedString(forStatusCode: status)),
                headers: [.contentType: "application/json"], body: Data(body.utf8))
        }
        await server.appendRoute("GET /media/*") { request in
            mediaReply(path: request.path, delay: mediaDelay, counters: counters)
        }
        await server.appendRoute("GET /stats") { _ in
            HTTPResponse(
                statusCode: .ok, headers: [.contentType: "application/json"], body: Data(counters.json.utf8))
        }
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 5)
        guard case .ip4(_, let listening) = await server.listeningAddress else {
            throw CocoaError(.featureUnsupported)
        }
        port.withLock { $0 = listening }
        return FixtureServer(server: server, task: task, port: listening, counters: counters)
    }

    private init(server: HTTPServer, task: Task<Void, Error>, port: UInt16, counters: Counters) {
        self.server = server
        self.task = task
        self.port = port
        self.counters = counters
    }

    /// Stops listening and closes every connection.
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

    // MARK: - Search

    /// Giphy's gateway body for a spent key (no `meta`).
    static let rateLimitBody = #"{"message":"API rate limit exceeded"}"#

    static func errorBody(_ status: Int, _ message: String) -> String {
        #"{"data":[],"meta":{"status":\#(status),"msg":"\#(message)","response_id":""}}"#
    }

    /// The status and body Giphy would send for a search.
    static func searchReply(query: [HTTPRequest.QueryItem], mediaBase: String) -> (Int, String) {
        guard query["api_key"] == apiKey else { return (401, errorBody(401, "Unauthorized")) }
        let text = query["q"] ?? ""
        switch text {
        case "error:429": return (429, rateLimitBody)
        case "error:500": return (500, errorBody(500, "Internal Server Error"))
        case "error:malformed": return (200, "<html><body>502 Bad Gateway</body></html>")
        default: break
        }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            return (400, errorBody(400, "Please provide a search query"))
        }
        guard text.count <= 50 else { return (414, errorBody(414, "URI Too Long")) }
        let limit = min(50, max(1, query["limit"].flatMap { Int($0) } ?? 25))
        let offset = max(0, query["offset"].flatMap { Int($0) } ?? 0)
        guard offset <= 4999 else { return (400, errorBody(400, "offset must be less than or equal to 4999")) }

        let results = FixtureResult.all(for: text)
        let page = results.dropFirst(offset).prefix(limit)
        let data = page.map { $0.json(mediaBase: mediaBase) }
        let body: [String: Any] = [
            "data": data,
            "pagination": ["total_count": results.count, "count": page.count, "offset": offset],
            "meta": ["status": 200, "msg": "OK", "response_id": String(format: "%016llx", UInt64(stableHash(text)))],
        ]
        let json = try! JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return (200, String(decoding: json, as: UTF8.self))
    }

    // MARK: - Media

    private static func mediaReply(path: String, delay: Duration, counters: Counters) -> HTTPResponse {
        // /media/<id>/200.gif
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 3, parts[0] == "media", FixtureResult.isListed(id: parts[1]),
            parts[2] == "200.gif" || parts[2] == "broken.gif"
        else {
            counters.requestedMedia(parts.count > 1 ? parts[1] : path)
            return HTTPResponse(
                statusCode: .notFound, headers: [.contentType: "application/json"],
                body: Data(
                    #"{"data":[],"meta":{"msg":"Not Found","status":404,"response_id":"","error_code":"404"}}"#.utf8))
        }
        counters.requestedMedia(parts[1])
        var bytes = FixtureGIF.bytes(id: parts[1])
        if parts[2] == "broken.gif" { bytes.removeLast(bytes.count / 2) }
        let body = TrickledBody(body: bytes, pause: delay / TrickledBody.chunks, counters: counters)
        return HTTPResponse(
            statusCode: .ok, headers: [.contentType: "image/gif"],
            body: HTTPBodySequence(from: body, count: bytes.count))
    }

    /// What the server has seen. Thread-safety: all state behind one lock, released before returning.
    public final class Counters: Sendable {
        private struct State {
            var searches: [String] = []
            var media: [String] = []
            var completed = 0
            var abandoned = 0
        }

        private let state = Mutex(State())

        func searched(_ query: String) { state.withLock { $0.searches.append(query) } }
        func requestedMedia(_ id: String) { state.withLock { $0.media.append(id) } }
        func finished() { state.withLock { $0.completed += 1 } }
        func abandon() { state.withLock { $0.abandoned += 1 } }

        /// The `q` of each search received, in order.
        public var searches: [String] { state.withLock { $0.searches } }
        /// The id of each GIF requested, in order.
        public var media: [String] { state.withLock { $0.media } }
        /// GIFs sent to the end.
        public var completed: Int { state.withLock { $0.completed } }
        /// GIFs whose client went away before the end (the connection was closed: a cancelled download).
        public var abandoned: Int { state.withLock { $0.abandoned } }

        /// All of it as a JSON object.
        var json: String {
            let snapshot = state.withLock { $0 }
            let object: [String: Any] = [
                "searches": snapshot.searches, "media": snapshot.media, "completed": snapshot.completed,
                "abandoned": snapshot.abandoned,
            ]
            return String(
                decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
    }
}

/// One search result of the fixture: made from the query and its position, like a recorded one.
struct FixtureResult {
    let id: String
    let title: String
    let bytes: Int

    private static let adjectives = [
        "Happy", "Sleepy", "Dancing", "Surprised", "Excited", "Grumpy", "Tiny", "Funny", "Cute", "Confused",
        "Jumping", "Spinning",
    ]
    private static let sources = ["", " by Giphy Studios", " by Reaction", " by Animation Domination", " by afv"]
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// Every result for `query`: 24...48 of them, none for a query containing `zzz`.
    static func all(for query: String) -> [FixtureResult] {
        let normalized = query.lowercased().trimmingCharacters(in: .whitespaces)
        guard !normalized.contains("zzz") else { return [] }
        let total = 24 + stableHash(normalized) % 25
        let subject = normalized.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: " ")
        return (0..<total).map { index in
            let hash = stableHash("\(normalized)#\(index)")
            var id = "fx"
            var bits = UInt64(hash)
            for _ in 0..<11 {
                id.append(alphabet[Int(bits % UInt64(alphabet.count))])
                bits /= UInt64(alphabet.count)
            }
            // Every 7th untitled, as Giphy's often are.
            let title =
                index % 7 == 6
                ? "" : "\(adjectives[hash % adjectives.count]) \(subject) GIF\(sources[(hash >> 8) % sources.count])"
            return FixtureResult(id: id, title: title, bytes: FixtureGIF.bytes(id: id).count)
        }
    }

    /// Whether `id` has the fixture's shape: a GIF the server could have listed.
    static func isListed(id: String) -> Bool {
        id.count == 13 && id.hasPrefix("fx") && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    func json(mediaBase: String) -> [String: Any] {
        let slug = (title.isEmpty ? "gif" : title.lowercased().replacingOccurrences(of: " ", with: "-")) + "-\(id)"
        let rendition: [String: Any] = [
            "height": "\(FixtureGIF.height)", "width": "\(FixtureGIF.width)", "size": "\(bytes)",
            "url": "\(mediaBase)/media/\(id)/200.gif",
        ]
        var original = rendition
        original["frames"] = "\(FixtureGIF.frameCount + 1)"
        return [
            "type": "gif", "id": id, "url": "https://giphy.com/gifs/\(slug)", "slug": slug,
            "embed_url": "https://giphy.com/embed/\(id)", "username": "", "source": "", "title": title,
            "rating": "g", "content_url": "", "is_sticker": 0, "import_datetime": "2016-04-29 13:33:06",
            "trending_datetime": "0000-00-00 00:00:00",
            "images": ["original": original, "fixed_height": rendition],
        ]
    }
}

/// A GIF sent in ``chunks`` pieces with `pause` before each. If the iterator is released before the
/// end, the client went away (the server could not write), and `counters` hear of it.
private struct TrickledBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    static let chunks = 10

    let body: [UInt8]
    let pause: Duration
    let counters: FixtureServer.Counters

    func makeAsyncIterator() -> Iterator {
        Iterator(
            body: body[...], chunk: Swift.max(1, (body.count + Self.chunks - 1) / Self.chunks), pause: pause,
            progress: Progress(counters: counters))
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
        var body: ArraySlice<UInt8>
        let chunk: Int
        let pause: Duration
        let progress: Progress

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard !body.isEmpty else {
                progress.finished.store(true, ordering: .relaxed)
                return nil
            }
            try await Task.sleep(for: pause)
            let taken = Array(body.prefix(chunk))
            body.removeFirst(taken.count)
            // Marked on handing out the last bytes: the server stops asking once it has the length it
            // announced.
            if body.isEmpty { progress.finished.store(true, ordering: .relaxed) }
            return taken
        }
    }
}
