/// Where the connection to the open device stands.
public enum ConnectionStatus: Equatable {
    case connecting
    /// Connected; BlueZ is resolving the services.
    case discovering
    case connected
    /// Not connected; the sentence says why, when it was not the person's doing.
    case disconnected(String?)

    public var isConnected: Bool { self == .connected || self == .discovering }

    public var text: String {
        switch self {
        case .connecting: "connecting…"
        case .discovering: "connected, discovering services…"
        case .connected: "connected"
        case .disconnected: "disconnected · c connects again"
        }
    }
}
