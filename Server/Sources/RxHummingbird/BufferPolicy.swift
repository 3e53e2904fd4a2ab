/// How many of a stream's elements the server keeps for one client, and what it does when the client
/// reads more slowly than the stream produces.
///
/// Rx has no backpressure: an `Observable` pushes whenever its source does. A network writer does
/// have it (its `write` waits while the connection's send buffer is full), so between the two each
/// client gets a buffer of `capacity` elements. While a write waits, elements collect there; when it
/// is full, ``overflow`` decides. So a client that reads slowly costs the server at most its bound,
/// never a queue that grows as long as it stays connected.
///
/// The writer waits only once the kernel stops taking bytes, and Linux grows a connection's send
/// buffer on its own up to `tcp_wmem`'s maximum (4 MB): a client that stops reading a slow stream
/// would take megabytes of kernel memory before the buffer here saw a single element. So each
/// streaming connection gets a fixed send buffer of ``sendBufferBytes`` (`SO_SNDBUF`, which also
/// turns the kernel's growing off for that socket), and the bound of a stalled client is: the
/// kernel's send buffer (Linux doubles the value asked for, for its bookkeeping), NIO's outbound
/// high-water mark (64 KB), the batch the writer has in hand, and `capacity` elements.
public struct BufferPolicy: Sendable, Equatable {
    /// What a full buffer does with the next element.
    public enum Overflow: Sendable, Equatable {
        /// Drop the oldest buffered element to make room (a slow client sees the latest state).
        case keepNewest
        /// Drop the new element (a slow client sees an unbroken prefix, then a gap).
        case keepOldest
        /// Dispose the client's subscription and close its connection (a client that gets anything
        /// gets everything, in order).
        case closeClient
    }

    /// The send buffer asked for on each streaming connection by default: 32 KB, which Linux makes
    /// 64 KB. Far more than an event stream needs in flight (64 KB per round trip is 640 KB/s at
    /// 100 ms), and small enough that a stalled client holds a few tens of KB in the kernel rather
    /// than megabytes.
    public static let defaultSendBufferBytes = 32 << 10

    /// The most elements kept for one client, at least 1.
    public let capacity: Int
    /// What a full buffer does.
    public let overflow: Overflow
    /// The `SO_SNDBUF` set on each streaming connection when its stream starts, or `nil` to leave
    /// the kernel's own (growing) send buffer. Set only where the stream knows its channel (a
    /// ``ChannelRequestContext``).
    public let sendBufferBytes: Int?

    /// A buffer of `capacity` elements (at least 1) with the given overflow policy, over a kernel send
    /// buffer of `sendBufferBytes` (at least 1 024 when given; `nil` leaves the kernel's).
    public init(capacity: Int, overflow: Overflow, sendBufferBytes: Int? = Self.defaultSendBufferBytes) {
        self.capacity = max(1, capacity)
        self.overflow = overflow
        self.sendBufferBytes = sendBufferBytes.map { min(max(1_024, $0), Int(Int32.max)) }
    }

    /// Keeps the newest `capacity` elements.
    public static func keepNewest(_ capacity: Int) -> Self { Self(capacity: capacity, overflow: .keepNewest) }
    /// Keeps the oldest `capacity` elements.
    public static func keepOldest(_ capacity: Int) -> Self { Self(capacity: capacity, overflow: .keepOldest) }
    /// Closes a client that falls `capacity` elements behind.
    public static func closeClient(after capacity: Int) -> Self { Self(capacity: capacity, overflow: .closeClient) }

    /// This policy over a kernel send buffer of `bytes` per streaming connection (`nil`: the kernel's).
    public func sendBuffer(_ bytes: Int?) -> Self {
        Self(capacity: capacity, overflow: overflow, sendBufferBytes: bytes)
    }
}
