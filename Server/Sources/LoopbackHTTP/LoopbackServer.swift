import Hummingbird
import Logging
import NIOCore

/// A Hummingbird application running on a free loopback port, for tests, the example server's offline
/// EONET and the load test: started with ``start(router:backlog:)``, stopped with ``stop()``.
public final class LoopbackServer: Sendable {
    /// The port the kernel gave the server.
    public let port: Int
    private let task: Task<Void, Error>

    private init(port: Int, task: Task<Void, Error>) {
        self.port = port
        self.task = task
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts serving `responder` on 127.0.0.1 (`port` 0: a free one) and returns once the server listens.
    public static func start<Responder: HTTPResponder>(
        responder: Responder, port: Int = 0, backlog: Int = 256, logLevel: Logger.Level = .critical
    ) async throws -> LoopbackServer where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        var logger = Logger(label: "loopback")
        logger.logLevel = logLevel
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), backlog: backlog),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw LoopbackServerError.didNotStart
        }
        return LoopbackServer(port: port, task: task)
    }

    /// Shuts the server down and waits for it to stop.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}

/// Why a loopback server is not running.
public enum LoopbackServerError: Error, CustomStringConvertible {
    case didNotStart

    public var description: String { "The loopback server did not start listening." }
}
