import Hummingbird
import NIOCore
import RxSwift

/// One server-sent event (the `text/event-stream` format of the HTML standard).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event's id, which a reconnecting browser sends back as `Last-Event-ID`.
    public var id: String?
    /// The event's type (`message` when absent).
    public var event: String?
    /// The payload; each line becomes one `data:` line.
    public var data: String
    /// How long, in milliseconds, a client should wait before reconnecting.
    public var retry: Int?

    public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }

    /// Appends the event in the wire format. Line breaks inside `id` and `event` would start a new
    /// field, so they are replaced by spaces; `data` keeps its lines as separate `data:` fields.
    public func write(into buffer: inout ByteBuffer) {
        if let id { buffer.writeString("id: \(Self.singleLine(id))\n") }
        if let event { buffer.writeString("event: \(Self.singleLine(event))\n") }
        if let retry { buffer.writeString("retry: \(retry)\n") }
        var start = data.startIndex
        while let end = data[start...].firstIndex(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            buffer.writeString("data: \(data[start..<end])\n")
            start = data.index(after: end)
        }
        buffer.writeString("data: \(data[start...])\n\n")
    }

    /// Appends a comment line (`: text`), which clients ignore: sent to a client that has had nothing
    /// for a while, it keeps proxies and load balancers from closing the connection as idle. Line
    /// breaks in `text` become spaces.
    public static func writeComment(_ text: String, into buffer: inout ByteBuffer) {
        buffer.writeString(": \(singleLine(text))\n\n")
    }

    private static func singleLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}

extension ObservableType where Element == ServerSentEvent {
    /// A `text/event-stream` response that sends this sequence's events to the client as they happen,
    /// bounded by `buffer`.
    ///
    /// Each client subscribes once, when its response starts; see ``BufferPolicy`` for what a slow
    /// client costs and gets. The subscription is disposed as soon as the client goes away, which a
    /// handler at the front of the connection's pipeline (`context.channel`) notices. When the
    /// sequence completes, the response ends cleanly; an error cuts it short.
    public func eventStreamResponse(
        for context: some ChannelRequestContext, buffer: BufferPolicy = .closeClient(after: 256),
        monitor: StreamMonitor? = nil
    ) -> Response {
        Self.eventStream(responseBody(for: context, buffer: buffer, monitor: monitor, bytes: encodeEvent))
    }

    /// A `text/event-stream` response as above, for a request context that does not know its
    /// channel: the client's departure is watched by Hummingbird's `consumeWithInboundCloseHandler`,
    /// a child task and a stream per client (about 7 KB more per client than with a
    /// ``ChannelRequestContext``).
    public func eventStreamResponse(
        for request: Request, buffer: BufferPolicy = .closeClient(after: 256), monitor: StreamMonitor? = nil
    ) -> Response {
        Self.eventStream(responseBody(for: request, buffer: buffer, monitor: monitor, bytes: encodeEvent))
    }

    private static func eventStream(_ body: ResponseBody) -> Response {
        Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }
}

@Sendable private func encodeEvent(_ event: ServerSentEvent, first: Bool) -> ByteBuffer {
    var bytes = ByteBuffer()
    event.write(into: &bytes)
    return bytes
}
