import FlyingFox
import FlyingSocks
import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (a free port the kernel picks), started and stopped by the
/// test that owns it, with the routes the networking tests need. It counts what it sees.
///
/// Routes:
/// - `/json`: 200 with a JSON object; `/text`: 200 with a body that is not JSON; `/binary`: not UTF-8.
/// - `/status/CODE`: that status with a JSON body `{"error":CODE}`.
/// - `/redirect`: 302 to `/json`.
/// - `/truncated`: announces 1000 bytes, sends 100, then closes the connection.
/// - `/slow`: 20 chunks of 100 bytes, one every 100 ms; records whether the client went away first.
/// - `/large`: 1 MiB in 64 KiB chunks with a `Content-Length`; `/chunked`: 3000 bytes, chunked encoding.
/// - `/concurrent/N`: holds the request 300 ms, counting how many are in flight at once.
/// - `/flaky`: 503 for the first two requests, then 200.
/// - `/counted/NAME`: 200 with a body naming the path (`?size=N`: N bytes instead).
final class TestHTTPServer: Sendable {
    static let jsonBody = #"{"array":["foo","bar"],"foo":"bar"}"#

    private let server: HTTPServer
    private let task: Task<Void, Error>
    let port: UInt16
    let stats: Stats

    /// Starts a server and waits until it listens (blocks the calling thread, never the server's).
    static func start() throws -> TestHTTPServer {
        let box = Mutex<Result<TestHTTPServer, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let server = try await make()
                box.withAnnotatedLock { $0 = .success(server) }
            } catch {
                box.withAnnotatedLock { $0 = .failure(error) }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success, let result = box.withAnnotatedLock({ $0 }) else {
            throw CocoaError(.featureUnsupported)
        }
        return try result.get()
    }

    private static func make() async throws -> TestHTTPServer {
        let stats = Stats()
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        await addRoutes(to: server, stats: stats)
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 5)
        guard case .ip4(_, let port) = await server.listeningAddress else { throw CocoaError(.featureUnsupported) }
        return TestHTTPServer(server: server, task: task, port: port, stats: stats)
    }

    private init(server: HTTPServer, task: Task<Void, Error>, port: UInt16, stats: Stats) {
        self.server = server
        self.task = task
        self.port = port
        self.stats = stats
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    func request(_ path: String) -> URLRequest {
        URLRequest(url: url(path))
    }

    /// Stops listening and closes every connection.
    func stop() {
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

    // MARK: - Routes

    private static func addRoutes(to server: HTTPServer, stats: Stats) async {
        let json: HTTPHeaders = [.contentType: "application/json"]
        await server.appendRoute("GET /json") { request in
            stats.count(request.path)
            return HTTPResponse(statusCode: .ok, headers: json, body: Data(jsonBody.utf8))
        }
        await server.appendRoute("GET /text") { request in
            stats.count(request.path)
            return HTTPResponse(
                statusCode: .ok, headers: HTTPHeaders([.contentType: "text/html"]), body: Data("<html>no</html>".utf8))
        }
        await server.appendRoute("GET /binary") { request in
            stats.count(request.path)
            return HTTPResponse(statusCode: .ok, body: Data([0xFF, 0xFE, 0x80, 0x41]))
        }
        await server.appendRoute("GET /status/:code") { request in
            stats.count(request.path)
            let code = Int(request.path.split(separator: "/").last ?? "") ?? 500
            let status = HTTPStatusCode(code, phrase: HTTPURLResponse.localizedString(forStatusCode: code))
            return HTTPResponse(statusCode: status, headers: json, body: Data(#"{"error":\#(code)}"#.utf8))
        }
        await server.appendRoute("GET /redirect") { request in
            stats.count(request.path)
            return HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: "/json"]))
        }
        await server.appendRoute("GET /truncated") { request in
            stats.count(request.path)
            let bytes = PacedBytes(chunks: [Data(repeating: 65, count: 100)], pause: .zero, failAtEnd: true)
            return HTTPResponse(statusCode: .ok, body: HTTPBodySequence(from: bytes, count: 1000))
        }
        await server.appendRoute("GET /slow") { request in
            stats.count(request.path)
            let bytes = PacedBytes(
                chunks: Array(repeating: Data(repeating: 66, count: 100), count: 20), pause: .milliseconds(100),
                onAbandon: { stats.recordAbandoned(request.path) })
            return HTTPResponse(statusCode: .ok, body: HTTPBodySequence(from: bytes, count: 2000))
        }
        await server.appendRoute("GET /large") { request in
            stats.count(request.path)
            let chunks = (0..<16).map { Data(repeating: UInt8($0), count: 64 << 10) }
            let bytes = PacedBytes(chunks: chunks, pause: .milliseconds(5))
            return HTTPResponse(statusCode: .ok, body: HTTPBodySequence(from: bytes, count: 1 << 20))
        }
        await server.appendRoute("GET /chunked") { request in
            stats.count(request.path)
            let bytes = PacedBytes(
                chunks: Array(repeating: Data(repeating: 68, count: 1000), count: 3), pause: .milliseconds(5))
            return HTTPResponse(statusCode: .ok, body: HTTPBodySequence(from: bytes))
        }
        await server.appendRoute("GET /concurrent/:n") { request in
            stats.count(request.path)
            stats.enter()
            try? await Task.sleep(for: .milliseconds(300))
            stats.leave()
            return HTTPResponse(statusCode: .ok, body: Data(request.path.utf8))
        }
        await server.appendRoute("GET /flaky") { request in
            let seen = stats.count(request.path)
            return seen <= 2
                ? HTTPResponse(statusCode: .serviceUnavailable, body: Data("try later".utf8))
                : HTTPResponse(statusCode: .ok, body: Data("ok".utf8))
        }
        await server.appendRoute("GET /counted/*") { request in
            stats.count(request.path)
            if let size = request.query["size"].flatMap({ Int($0) }) {
                return HTTPResponse(statusCode: .ok, body: Data(repeating: 67, count: size))
            }
            return HTTPResponse(statusCode: .ok, body: Data(request.path.utf8))
        }
    }

    /// What the server has seen. Thread-safety: all state behind one lock.
    final class Stats: Sendable {
        private struct State {
            var requests: [String: Int] = [:]
            var inFlight = 0
            var maxInFlight = 0
            var abandoned: [String] = []
        }

        private let state = Mutex(State())

        @discardableResult
        func count(_ path: String) -> Int {
            state.withAnnotatedLock { state in
                state.requests[path, default: 0] += 1
                return state.requests[path]!
            }
        }

        func requests(_ path: String) -> Int { state.withAnnotatedLock { $0.requests[path] ?? 0 } }

        func enter() {
            state.withAnnotatedLock { state in
                state.inFlight += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight)
            }
        }

        func leave() { state.withAnnotatedLock { $0.inFlight -= 1 } }

        var maxInFlight: Int { state.withAnnotatedLock { $0.maxInFlight } }

        func recordAbandoned(_ path: String) { state.withAnnotatedLock { $0.abandoned.append(path) } }

        var abandoned: [String] { state.withAnnotatedLock { $0.abandoned } }
    }
}

/// A body sent in `chunks` with a pause before each; optionally failing after the last (the server
/// then closes the connection), and reporting when it is dropped before it was sent to the end
/// (the client went away).
private struct PacedBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    let chunks: [Data]
    let pause: Duration
    var failAtEnd = false
    var onAbandon: (@Sendable () -> Void)?

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks, pause: pause, failAtEnd: failAtEnd, progress: Progress(onAbandon: onAbandon))
    }

    /// Reports abandonment when released unfinished.
    final class Progress: @unchecked Sendable {
        let onAbandon: (@Sendable () -> Void)?
        var finished = false

        init(onAbandon: (@Sendable () -> Void)?) { self.onAbandon = onAbandon }

        deinit {
            if !finished { onAbandon?() }
        }
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var chunks: [Data]
        let pause: Duration
        let failAtEnd: Bool
        let progress: Progress
        private var pending: [UInt8] = []

        init(chunks: [Data], pause: Duration, failAtEnd: Bool, progress: Progress) {
            self.chunks = chunks
            self.pause = pause
            self.failAtEnd = failAtEnd
            self.progress = progress
        }

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            if pending.isEmpty {
                guard !chunks.isEmpty else {
                    if failAtEnd { throw CocoaError(.fileReadCorruptFile) }
                    progress.finished = true
                    return nil
                }
                if pause > .zero { try await Task.sleep(for: pause) }
                pending = Array(chunks.removeFirst())
            }
            let taken = Array(pending.prefix(Swift.max(1, count)))
            pending.removeFirst(taken.count)
            return taken
        }
    }
}
