/// How many of a stream's elements the server keeps for one client, and what it does when the client
/// reads more slowly than the stream produces.
///
/// Rx has no backpressure: an `Observable` pushes whenever its source does. A network writer does
/// have it (its `write` waits while the connection's send buffer is full), so between the two each
/// client gets a buffer of `capacity` elements. While a write waits, elements collect there; when it
/// is full, ``overflow`` decides. So a client that reads slowly costs the server at most its bound,
/// never a queue that grows as long as it stays connected.
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

    /// The most elements kept for one client, at least 1.
    public let capacity: Int
    /// What a full buffer does.
    public let overflow: Overflow

    /// A buffer of `capacity` elements (at least 1) with the given overflow policy.
    public init(capacity: Int, overflow: Overflow) {
        self.capacity = max(1, capacity)
        self.overflow = overflow
    }

    /// Keeps the newest `capacity` elements.
    public static func keepNewest(_ capacity: Int) -> Self { Self(capacity: capacity, overflow: .keepNewest) }
    /// Keeps the oldest `capacity` elements.
    public static func keepOldest(_ capacity: Int) -> Self { Self(capacity: capacity, overflow: .keepOldest) }
    /// Closes a client that falls `capacity` elements behind.
    public static func closeClient(after capacity: Int) -> Self { Self(capacity: capacity, overflow: .closeClient) }
}
