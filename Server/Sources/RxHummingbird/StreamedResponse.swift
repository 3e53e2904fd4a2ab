import Hummingbird
import NIOCore
import RxSwift

/// Why a streamed response was cut short by the server.
public enum StreamedResponseError: Error, Equatable, CustomStringConvertible {
    /// The client fell a whole buffer behind under ``BufferPolicy/Overflow/closeClient``.
    case slowClient(capacity: Int)

    public var description: String {
        switch self {
        case .slowClient(let capacity): return "The client fell \(capacity) elements behind and was closed."
        }
    }
}

extension ObservableType where Element: Sendable {
    /// A response body that streams this sequence to the client, each element turned into bytes by
    /// `bytes`, bounded by `buffer`.
    ///
    /// Each client that receives the body subscribes once, when its body starts; see ``BufferPolicy``
    /// for what a slow client costs and gets (the connection's kernel send buffer is set to the
    /// policy's ``BufferPolicy/sendBufferBytes``). The subscription is disposed as soon as the client
    /// goes away, which a handler at the front of the connection's pipeline (`context.channel`) notices.
    /// Share one upstream among clients with `share()` or `share(replay:)` before calling this.
    ///
    /// `bytes` is told whether the element is the first this client gets: with `share(replay: 1)`,
    /// that is the latest state, which a new client may need whole while the others get what changed.
    /// It runs in the client's writing task; the buffers it returns go to the connection as they are.
    public func responseBody(
        for context: some ChannelRequestContext, buffer: BufferPolicy = .closeClient(after: 256),
        monitor: StreamMonitor? = nil, bytes: @escaping @Sendable (_ element: Element, _ first: Bool) -> ByteBuffer
    ) -> ResponseBody {
        if let sendBufferBytes = buffer.sendBufferBytes {
            // Before the body's first write, on the same event loop: from then on the kernel takes at
            // most this much for the client and the writer waits, so the buffer's policy engages. A
            // failure means the channel is closed, which the departure watch reports.
            context.channel.setOption(.socketOption(.so_sndbuf), value: SocketOptionValue(sendBufferBytes))
                .whenFailure { _ in }
        }
        return ClientStream(
            asObservable(), policy: buffer, monitor: monitor, pipeline: context.channel.pipeline, bytes: bytes
        )
        .responseBody()
    }

    /// A response body as above, for a request context that does not know its channel: the client's
    /// departure is watched by Hummingbird's `consumeWithInboundCloseHandler`, a child task and a
    /// stream per client (about 7 KB more per client than with a ``ChannelRequestContext``). Without
    /// the channel, the policy's ``BufferPolicy/sendBufferBytes`` cannot be set: the kernel's send
    /// buffer grows as it will before the policy engages.
    public func responseBody(
        for request: Request, buffer: BufferPolicy = .closeClient(after: 256), monitor: StreamMonitor? = nil,
        bytes: @escaping @Sendable (_ element: Element, _ first: Bool) -> ByteBuffer
    ) -> ResponseBody {
        ClientStream(asObservable(), policy: buffer, monitor: monitor, bytes: bytes)
            .responseBody(watching: request.body)
    }
}

extension ObservableType where Element == ByteBuffer {
    /// A response body that streams this sequence's buffers to the client as they are (not copied),
    /// bounded by `buffer`; the client's departure is watched as with `responseBody(for:buffer:monitor:bytes:)`.
    public func responseBody(
        for context: some ChannelRequestContext, buffer: BufferPolicy = .closeClient(after: 256),
        monitor: StreamMonitor? = nil
    ) -> ResponseBody {
        responseBody(for: context, buffer: buffer, monitor: monitor) { element, _ in element }
    }

    /// A response body that streams this sequence's buffers to the client as they are, bounded by
    /// `buffer`, for a request context that does not know its channel (a child task per client
    /// watches for the client's departure).
    public func responseBody(
        for request: Request, buffer: BufferPolicy = .closeClient(after: 256), monitor: StreamMonitor? = nil
    ) -> ResponseBody {
        responseBody(for: request, buffer: buffer, monitor: monitor) { element, _ in element }
    }
}
