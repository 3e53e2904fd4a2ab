import FixtureHTTP
import FlyingFox
import Foundation
import Synchronization

/// An offline Giphy: a real HTTP server on a free loopback port answering `GET /v1/gifs/search` as
/// GIPHY's search API does (see GIPHY's API documentation, developers.giphy.com: the search
/// endpoint, its response and its errors), and serving the GIFs it lists, so iGif runs without a
/// key or a network and still talks HTTP through `URLSession.rx`.
///
/// - A search answers `data` (the GIF objects), `pagination` (`total_count`, `count`, `offset`) and
///   `meta` (`status`, `msg`, `response_id`); an error answers an empty `data` and its status in
///   `meta`. In a GIF object's `images`, every number (`width`, `height`, `size`) is a string, as
///   Giphy sends it.
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

    private let http: LoopbackServer
    /// What the server has seen.
    public let counters: Counters

    /// The port the kernel gave the server.
    public var port: UInt16 { http.port }
    /// The search endpoint to give ``ApiController``.
    public var searchURL: URL { URL(string: "http://127.0.0.1:\(port)/v1/gifs/search")! }
    /// The server's root.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts a server answering searches after `searchDelay` and sending each GIF over `mediaDelay`,
    /// and waits until it listens. Blocks the calling thread, never the server's.
    public static func start(
        searchDelay: Duration = .milliseconds(150), mediaDelay: Duration = .milliseconds(800)
    ) throws -> FixtureServer {
        let counters = Counters()
        // The search answers list the GIFs at this server, whose port is known once it listens.
        let port = Mutex<UInt16>(0)
        let http = try LoopbackServer.start { server in
            await server.appendRoute("GET /v1/gifs/search") { request in
                counters.searched(request.query["q"] ?? "")
                try await Task.sleep(for: searchDelay)
                let (status, body) = searchReply(
                    query: request.query, mediaBase: "http://127.0.0.1:\(port.withLock { $0 })")
                return HTTPResponse(
                    statusCode: HTTPStatusCode(status), headers: [.contentType: "application/json"],
                    body: Data(body.utf8))
            }
            await server.appendRoute("GET /media/*") { request in
                mediaReply(path: request.path, delay: mediaDelay, counters: counters)
            }
            await server.appendRoute("GET /stats") { _ in
                HTTPResponse(
                    statusCode: .ok, headers: [.contentType: "application/json"], body: Data(counters.json.utf8))
            }
        }
        port.withLock { $0 = http.port }
        return FixtureServer(http: http, counters: counters)
    }

    private init(http: LoopbackServer, counters: Counters) {
        self.http = http
        self.counters = counters
    }

    /// Stops listening and closes every connection.
    public func stop() { http.stop() }

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
        return HTTPResponse(
            statusCode: .ok, headers: [.contentType: "image/gif"],
            body: TrickledBody(bytes, over: delay, counters: counters.answers).sequence)
    }

    /// What the server has seen: the searches and the GIFs asked for in ``RequestLog``s, the GIFs'
    /// answers in ``AnswerCounters`` (``AnswerCounting`` reads them).
    public final class Counters: AnswerCounting {
        private let searchLog = RequestLog()
        private let mediaLog = RequestLog()
        public let answers = AnswerCounters()

        func searched(_ query: String) { searchLog.record(query) }
        func requestedMedia(_ id: String) { mediaLog.record(id) }

        /// The `q` of each search received, in order.
        public var searches: [String] { searchLog.all }
        /// The id of each GIF requested, in order.
        public var media: [String] { mediaLog.all }

        /// All of it as a JSON object.
        var json: String {
            let object: [String: Any] = [
                "searches": searches, "media": media, "completed": completed,
                "abandoned": abandoned,
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
