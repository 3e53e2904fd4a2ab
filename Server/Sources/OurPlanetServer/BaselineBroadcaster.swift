import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// The streaming route written without Rx, the way Swift server code commonly does it, for the load
/// test to measure beside the Rx route: one polling task per category that decodes each answer and
/// yields the encoded change to an `AsyncStream` per client (default, unbounded buffering), and a
/// response body per client that iterates its stream.
public final class BaselineBroadcaster: Sendable {
    private struct Channel {
        var clients: [Int: AsyncStream<ByteBuffer>.Continuation] = [:]
        var latest: EncodedChange?
        var started = false
    }

    private let baseURL: String
    private let client: HTTPClient
    private let pollInterval: Duration
    private let state = Mutex<(nextID: Int, channels: [String: Channel])>((0, [:]))

    public init(baseURL: String, client: HTTPClient, pollInterval: Duration) {
        self.baseURL = baseURL
        self.client = client
        self.pollInterval = pollInterval
    }

    /// Clients connected now.
    public var clientCount: Int { state.withLock { $0.channels.values.reduce(0) { $0 + $1.clients.count } } }

    func responseBody(for category: String) -> ResponseBody {
        ResponseBody { [self] writer in
            let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
            let (id, snapshot, start) = state.withLock { state -> (Int, ByteBuffer?, Bool) in
                state.nextID += 1
                var channel = state.channels[category] ?? Channel()
                channel.clients[state.nextID] = continuation
                let start = !channel.started
                channel.started = true
                state.channels[category] = channel
                return (state.nextID, channel.latest?.snapshot, start)
            }
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.channels[category]?.clients.removeValue(forKey: id) }
            }
            if let snapshot { continuation.yield(snapshot) }
            if start { startPolling(category) }
            defer { continuation.finish() }
            for await bytes in stream { try await writer.write(bytes) }
            try await writer.finish(nil)
        }
    }

    private func startPolling(_ category: String) {
        Task { [self] in
            var last: EventChanges?
            while !Task.isCancelled {
                if let events = try? await fetch(category) {
                    let change = LiveEvents.diff(from: last, to: events)
                    if change.sequence != last?.sequence {
                        last = change
                        publish(EncodedChange(change), to: category)
                    }
                }
                try? await Task.sleep(for: pollInterval)
            }
        }
    }

    private func publish(_ change: EncodedChange, to category: String) {
        let clients = state.withLock { state -> [AsyncStream<ByteBuffer>.Continuation] in
            state.channels[category]?.latest = change
            return Array(state.channels[category]?.clients.values ?? [:].values)
        }
        for client in clients { client.yield(change.sequence == 1 ? change.snapshot : change.delta) }
    }

    private func fetch(_ category: String) async throws -> [Event] {
        let request = HTTPClientRequest(url: "\(baseURL)/events?status=open&days=30&category=\(category)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 << 20)
        return try JSONDecoder().decode(EventsPage.self, from: Data(body.readableBytesView)).events
    }
}
