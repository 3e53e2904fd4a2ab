import Hummingbird
import LoopbackHTTP
import NIOCore
import Synchronization

/// The loopback server the client is tested against: one route per kind of answer.
enum TestServer {
    /// How many `/slow` bodies ended because the client went away.
    static let slowBodiesAbandoned = Atomic<Int>(0)

    static func start() async throws -> LoopbackServer {
        let router = Router()
        router.get("ok") { _, _ in text(#"{"name":"rx","count":3}"#) }
        router.get("missing") { _, _ in text("not here", status: .notFound) }
        router.get("busy") { _, _ in
            Response(
                status: .tooManyRequests, headers: [.retryAfter: "1"],
                body: .init(byteBuffer: ByteBuffer(string: "slow down")))
        }
        router.get("broken") { _, _ in text("oops", status: .internalServerError) }
        router.get("malformed") { _, _ in text("{not json") }
        router.get("big") { _, _ in text(String(repeating: "x", count: 10_000)) }
        router.get("chunks") { _, _ in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    for index in 0..<3 { try await writer.write(ByteBuffer(string: "part\(index);")) }
                    try await writer.finish(nil)
                })
        }
        router.get("drop") { _, _ in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "half a bo"))
                    throw CancellationError()
                })
        }
        router.get("slow") { _, _ in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    do {
                        while true {
                            try await writer.write(ByteBuffer(string: String(repeating: "s", count: 1024)))
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    } catch {
                        slowBodiesAbandoned.add(1, ordering: .relaxed)
                        throw error
                    }
                })
        }
        return try await LoopbackServer.start(responder: router.buildResponder())
    }

    private static func text(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
