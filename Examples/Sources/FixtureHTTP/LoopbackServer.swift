import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A FlyingFox server on a free loopback port, started and stopped from synchronous code: what the
/// applications' offline services (Wundercast's OpenWeatherMap, OurPlanet's EONET, iGif's Giphy) are
/// built on. Each of them adds its routes; this type owns the rest.
///
/// The server logs nothing (`logger: .disabled`): the programs draw the whole terminal, and a log line
/// would tear the screen.
public final class LoopbackServer: Sendable {
    private let server: HTTPServer
    private let task: Task<Void, Error>
    /// The port the kernel gave the server.
    public let port: UInt16

    /// Starts a server on `127.0.0.1` with the routes `routes` appends and waits until it listens.
    /// Blocks the calling thread, never the server's; gives up after 10 s.
    public static func start(routes: @escaping @Sendable (HTTPServer) async throws -> Void) throws -> LoopbackServer {
        guard let result = waitFor(seconds: 10, { try await make(routes: routes) }) else {
            throw CocoaError(.featureUnsupported)
        }
        return try result.get()
    }

    private static func make(routes: @Sendable (HTTPServer) async throws -> Void) async throws -> LoopbackServer {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        try await routes(server)
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 5)
        guard case .ip4(_, let port) = await server.listeningAddress else { throw CocoaError(.featureUnsupported) }
        return LoopbackServer(server: server, task: task, port: port)
    }

    private init(server: HTTPServer, task: Task<Void, Error>, port: UInt16) {
        self.server = server
        self.task = task
        self.port = port
    }

    /// Stops listening and closes every connection (what a test does to see a refused connection).
    /// Blocks the calling thread for at most 5 s.
    public func stop() {
        let server = server
        let task = task
        _ = Self.waitFor(seconds: 5) {
            await server.stop(timeout: 0)
            task.cancel()
        }
    }

    /// Runs `operation` in a task and waits for it on this thread; `nil` if it takes longer than
    /// `seconds`.
    private static func waitFor<Value: Sendable>(
        seconds: Int, _ operation: @escaping @Sendable () async throws -> Value
    ) -> Result<Value, Error>? {
        let box = Mutex<Result<Value, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let value = try await operation()
                box.withLock { $0 = .success(value) }
            } catch {
                box.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return box.withLock { $0 }
    }
}

extension HTTPStatusCode {
    /// The status `code` with the phrase Foundation gives it (`404 Not Found`).
    public init(_ code: Int) {
        self.init(code, phrase: HTTPURLResponse.localizedString(forStatusCode: code))
    }
}

/// A hash that is the same in every run (Swift's `hashValue` is seeded per process): FNV-1a. The
/// fixtures derive everything they make up from it, so the same request always gets the same answer.
public func stableHash(_ text: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return Int(truncatingIfNeeded: hash >> 1)
}
