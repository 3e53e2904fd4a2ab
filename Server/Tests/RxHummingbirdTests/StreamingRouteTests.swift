import AsyncHTTPClient
import Hummingbird
import LoopbackHTTP
import NIOCore
import NIOPosix
import RxHummingbird
import RxSwift
import RxTest
import Testing

/// Server-sent events and streamed bodies from an `Observable`, through a real server on loopback.
@Suite(.serialized, .leakChecked)
struct StreamingRouteTests {
    /// A server whose `/events` streams `subject` as server-sent events, through `buffer`.
    func withServer(
        _ subject: PublishSubject<ServerSentEvent>, buffer: BufferPolicy, monitor: StreamMonitor,
        _ body: (LoopbackServer) async throws -> Void
    ) async throws {
        let router = Router()
        router.get("events") { request, _ in
            subject.eventStreamResponse(for: request, buffer: buffer, monitor: monitor)
        }
        router.get("bytes") { request, _ in
            Response(status: .ok, body: subject.map { ByteBuffer(string: $0.data) }.responseBody(for: request))
        }
        let server = try await LoopbackServer.start(responder: router.buildResponder())
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<300 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func eventsArriveInTheWireFormatAndTheStreamEndsCleanly() async throws {
        let subject = PublishSubject<ServerSentEvent>()
        let monitor = StreamMonitor()
        try await withServer(subject, buffer: .closeClient(after: 16), monitor: monitor) { server in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "\(server.baseURL)/events"), timeout: .seconds(10))
            #expect(response.headers.first(name: "content-type") == "text/event-stream")
            try await waitUntil { monitor.liveSubscriptions == 1 }
            subject.onNext(ServerSentEvent(id: "1", event: "tick", data: "one"))
            subject.onNext(ServerSentEvent(id: "2", data: "two\nlines"))
            subject.onCompleted()
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(String(buffer: body) == "id: 1\nevent: tick\ndata: one\n\nid: 2\ndata: two\ndata: lines\n\n")
            try await waitUntil { monitor.liveSubscriptions == 0 }
            #expect(monitor.liveSubscriptions == 0)
        }
    }

    @Test func aClientThatGoesAwayDisposesItsSubscriptionAtOnce() async throws {
        let subject = PublishSubject<ServerSentEvent>()
        let monitor = StreamMonitor()
        try await withServer(subject, buffer: .keepNewest(16), monitor: monitor) { server in
            let channel = try await RawClient.connect(port: server.port, path: "/events")
            try await waitUntil { monitor.liveSubscriptions == 1 }
            #expect(subject.hasObservers)
            try await channel.close().get()
            // No event is sent: the departure alone must dispose the subscription.
            try await waitUntil { !subject.hasObservers && monitor.clientsGone == 1 }
            #expect(!subject.hasObservers)
            #expect(monitor.liveSubscriptions == 0)
            #expect(monitor.clientsGone == 1)
        }
    }

    @Test func aClientThatDoesNotReadIsClosedUnderCloseClient() async throws {
        let subject = PublishSubject<ServerSentEvent>()
        let monitor = StreamMonitor()
        try await withServer(subject, buffer: .closeClient(after: 8), monitor: monitor) { server in
            let channel = try await RawClient.connect(port: server.port, path: "/events")
            try await waitUntil { monitor.liveSubscriptions == 1 }
            let payload = String(repeating: "p", count: 16 << 10)
            for index in 0..<4_000 where monitor.slowClientsClosed == 0 {
                subject.onNext(ServerSentEvent(id: String(index), data: payload))
                if index % 50 == 0 { try await Task.sleep(for: .milliseconds(1)) }
            }
            try await waitUntil { monitor.liveSubscriptions == 0 }
            #expect(monitor.slowClientsClosed == 1)
            #expect(!subject.hasObservers)
            try? await channel.close().get()
        }
    }

    @Test func aClientThatDoesNotReadKeepsOnlyItsBoundUnderKeepNewest() async throws {
        let subject = PublishSubject<ServerSentEvent>()
        let monitor = StreamMonitor()
        try await withServer(subject, buffer: .keepNewest(8), monitor: monitor) { server in
            let channel = try await RawClient.connect(port: server.port, path: "/events")
            try await waitUntil { monitor.liveSubscriptions == 1 }
            let payload = String(repeating: "p", count: 16 << 10)
            for index in 0..<2_000 {
                subject.onNext(ServerSentEvent(id: String(index), data: payload))
                if index % 50 == 0 { try await Task.sleep(for: .milliseconds(1)) }
            }
            // Far more than the socket buffers hold was sent: the rest was dropped, not queued.
            #expect(monitor.elementsDropped > 1_000)
            #expect(monitor.liveSubscriptions == 1)
            try await channel.close().get()
            try await waitUntil { monitor.liveSubscriptions == 0 }
            #expect(monitor.liveSubscriptions == 0)
        }
    }

    @Test func anObservableOfBuffersStreamsAsABody() async throws {
        let subject = PublishSubject<ServerSentEvent>()
        try await withServer(subject, buffer: .keepOldest(4), monitor: StreamMonitor()) { server in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "\(server.baseURL)/bytes"), timeout: .seconds(10))
            try await waitUntil { subject.hasObservers }
            subject.onNext(ServerSentEvent(data: "ab"))
            subject.onNext(ServerSentEvent(data: "cd"))
            subject.onCompleted()
            #expect(String(buffer: try await response.body.collect(upTo: 1024)) == "abcd")
        }
    }
}

/// A client that sends a request and never reads the answer, then closes when told.
enum RawClient {
    static func connect(port: Int, path: String) async throws -> any Channel {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: false)
            .channelOption(.socketOption(.so_rcvbuf), value: 4096)
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        return channel
    }
}
