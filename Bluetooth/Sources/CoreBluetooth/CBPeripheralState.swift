/// Where a central's link to a peripheral stands.
public enum CBPeripheralState: Int, Sendable, Hashable {
    /// There is no link.
    case disconnected = 0

    /// A connection has been asked for and has not been made yet.
    case connecting = 1

    /// The link is up.
    case connected = 2

    /// A disconnection has been asked for and has not happened yet.
    case disconnecting = 3
}
