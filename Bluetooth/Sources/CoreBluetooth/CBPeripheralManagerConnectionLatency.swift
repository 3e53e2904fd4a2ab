/// How often a peripheral manager asks a connected central to exchange packets: lower latency answers
/// sooner and spends more power.
public enum CBPeripheralManagerConnectionLatency: Int, Sendable, Hashable {
    /// Frequent exchanges: quick answers, more power.
    case low = 0

    /// A balance of latency and power; the default.
    case medium = 1

    /// Infrequent exchanges: slow answers, least power.
    case high = 2
}
