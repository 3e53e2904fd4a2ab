import Foundation
import Hummingbird
import LoopbackHTTP
import NIOCore
import NIOPosix
import RxHummingbird
import RxSwift
import RxTest
import Testing

/// A client that stops reading a slow stream: the kernel would grow the connection's send buffer to
/// megabytes before the writer waited, so the per-client buffer would never fill. With the policy's
/// fixed send buffer, the writer waits early and the overflow policy engages.
@Suite(.serialized, .leakChecked)
struct StalledClientTests {
    static let policies: [BufferPolicy] = [.closeClient(after: 16), .keepNewest(16), .keepOldest(16)]

    @Test(arguments: policies)
    func aStalledClientIsClosedOrKeptWithinItsBound(policy: BufferPolicy) async throws {
        let subject = PublishSubject<ServerSentEvent>()
        let monitor = StreamMonitor()
        let router = Router(context: BasicChannelRequestContext.self)
        router.get("events") { _, context in
            subject.eventStreamResponse(for: context, buffer: policy, monitor: monitor)
        }
        let server = try await LoopbackServer.start(responder: router.buildResponder())
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: false)
            .channelOption(.socketOption(.so_rcvbuf), value: 1_024)
            .connect(host: "127.0.0.1", port: server.port).get()
        try await channel.writeAndFlush(ByteBuffer(string: "GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        for _ in 0..<300 where monitor.liveSubscriptions == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(monitor.liveSubscriptions == 1)

        // 1 600 events of about 500 bytes, 800 KB in all, at a pace the kernel's own send buffer
        // would keep growing to take (the problem's server queued 860 KB this way, nothing dropped).
        let payload = String(repeating: "p", count: 480)
        var largestQueue = 0
        for index in 0..<1_600 where monitor.slowClientsClosed == 0 {
            subject.onNext(ServerSentEvent(id: String(index), data: payload))
            if index % 20 == 19 {
                try await Task.sleep(for: .milliseconds(2))
                largestQueue = max(largestQueue, serverSocket(serverPort: server.port, client: channel)?.queue ?? 0)
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        largestQueue = max(largestQueue, serverSocket(serverPort: server.port, client: channel)?.queue ?? 0)

        switch policy.overflow {
        case .closeClient:
            for _ in 0..<300 where monitor.liveSubscriptions > 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(monitor.slowClientsClosed == 1)
            #expect(monitor.liveSubscriptions == 0)
            // The server closed its side at once, although its writer waited for the client.
            if let state = serverSocket(serverPort: server.port, client: channel)?.state {
                #expect(state != 1, "the server's socket is still established")
            }
        case .keepNewest, .keepOldest:
            #expect(monitor.elementsDropped > 0)
            #expect(monitor.liveSubscriptions == 1)
        }
        // The kernel's share: at most twice the send buffer asked for (Linux doubles it).
        #expect(largestQueue <= 2 * BufferPolicy.defaultSendBufferBytes, "the server's Send-Q reached \(largestQueue)")
        // Under closeClient, the client may have seen the server's close already.
        try? await channel.close().get()
        for _ in 0..<300 where monitor.liveSubscriptions > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(monitor.liveSubscriptions == 0)
        await server.stop()
    }

    @Test func theSendBufferCanBeLeftToTheKernel() {
        let policy = BufferPolicy.keepNewest(8)
        #expect(policy.sendBufferBytes == BufferPolicy.defaultSendBufferBytes)
        #expect(policy.sendBuffer(nil).sendBufferBytes == nil)
        #expect(policy.sendBuffer(1).sendBufferBytes == 1_024)
    }

    /// The server's socket for `client` in `/proc/net/tcp`: its TCP state (1: established) and the bytes
    /// queued in its kernel send buffer (`ss`'s Send-Q, the `tx_queue`); nil where there is no such
    /// file or the socket is gone.
    func serverSocket(serverPort: Int, client: any Channel) -> (state: Int, queue: Int)? {
        guard let clientPort = client.localAddress?.port,
            let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        else { return nil }
        let local = String(format: ":%04X", serverPort)
        let remote = String(format: ":%04X", clientPort)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[1].hasSuffix(local), fields[2].hasSuffix(remote) else { continue }
            guard let state = Int(fields[3], radix: 16), let queue = Int(fields[4].split(separator: ":")[0], radix: 16)
            else { return nil }
            return (state, queue)
        }
        return nil
    }
}
