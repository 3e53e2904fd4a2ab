/// A connection or disconnection that a central manager registered for with
/// ``CBConnectionEventMatchingOption`` options.
public enum CBConnectionEvent: Int, Sendable, Hashable {
    /// A matching peer disconnected.
    case peerDisconnected = 0

    /// A matching peer connected.
    case peerConnected = 1
}
