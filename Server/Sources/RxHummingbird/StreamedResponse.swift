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
    /// Writes this sequence to one client, each element turned into bytes by `encode`, through a
    /// buffer bounded by `buffer`, until the sequence ends or the client goes away.
    ///
    /// Subscribes when called (once the response head is on its way) and disposes the subscription as
    /// soon as the client's connection closes, the writer fails, or the sequence ends. Elements are
    /// written in batches: whatever arrived while the previous write waited for the connection goes
    /// out in the next one. An error of the sequence ends the body with that error (Hummingbird then
    /// closes the connection, so the client sees the body cut short rather than a clean end).
    func write(
        to writer: inout any ResponseBodyWriter, request: Request, buffer policy: BufferPolicy,
        monitor: StreamMonitor?, encode: @escaping @Sendable (Element, inout ByteBuffer) -> Void
    ) async throws {
        let buffer = ClientBuffer<Element>(policy: policy)
        let subscription = SingleAssignmentDisposable()
        monitor?.subscribed()
        let disposal = Disposables.create {
            subscription.dispose()
            monitor?.disposed()
        }
        subscription.setDisposable(
            subscribe(
                onNext: { element in
                    switch buffer.push(element) {
                    case .buffered: break
                    case .dropped: monitor?.droppedElement()
                    case .closed: disposal.dispose()
                    }
                },
                onError: { buffer.finish(.failed($0)) },
                onCompleted: { buffer.finish(.completed) }))
        defer { disposal.dispose() }
        let end = try await request.body.consumeWithInboundCloseHandler { _ in
            try await Self.drain(buffer, into: &writer, encode: encode)
        } onInboundClosed: {
            buffer.finish(.clientGone)
            disposal.dispose()
        }
        switch end {
        case .completed:
            try await writer.finish(nil)
        case .failed(let error):
            throw error
        case .overflowed:
            monitor?.closedSlowClient()
            throw StreamedResponseError.slowClient(capacity: policy.capacity)
        case .clientGone:
            monitor?.clientWentAway()
        }
    }

    private static func drain(
        _ buffer: ClientBuffer<Element>, into writer: inout any ResponseBodyWriter,
        encode: @Sendable (Element, inout ByteBuffer) -> Void
    ) async throws -> ClientBuffer<Element>.End {
        while true {
            switch await buffer.next() {
            case .elements(let elements):
                var bytes = ByteBuffer()
                for element in elements { encode(element, &bytes) }
                try await writer.write(bytes)
            case .end(let end):
                return end
            }
        }
    }
}

extension ObservableType where Element == ByteBuffer {
    /// A response body that streams this sequence's buffers to the client, bounded by `buffer`.
    ///
    /// Each client that receives the body subscribes once; see ``BufferPolicy`` for what a slow client
    /// costs and gets. The subscription is disposed as soon as the client goes away. Share one upstream
    /// among clients with `share()` or `share(replay:)` before calling this.
    public func responseBody(
        for request: Request, buffer: BufferPolicy = .closeClient(after: 256), monitor: StreamMonitor? = nil
    ) -> ResponseBody {
        let source = asObservable()
        return ResponseBody { writer in
            try await source.write(to: &writer, request: request, buffer: buffer, monitor: monitor) { element, bytes in
                var element = element
                bytes.writeBuffer(&element)
            }
        }
    }
}
