/// The advertisement data an advertisement restored by the system was started with.
public typealias RestoredAdvertisementData = [String: Any]

/// What ``PeripheralManager/startAdvertising(_:)`` emits once advertising runs.
public enum StartAdvertisingResult: @unchecked Sendable {
    /// This manager's advertisement is registered and on the air.
    case started
    /// Advertising that was already running (restored by the system) was taken over. BlueZ has no state
    /// restoration, so on Linux this case never occurs.
    case attachedToExternalAdvertising(RestoredAdvertisementData?)
}
