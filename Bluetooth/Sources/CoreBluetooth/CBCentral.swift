import Foundation

/// A remote central that a peripheral manager serves.
///
/// On Linux BlueZ names the device behind a read or a write (its object path, in the call's options) and
/// its link's MTU, so a request's central has an ``identifier`` made from the adapter's and the device's
/// addresses, as RxBluetoothKit makes a peripheral's. BlueZ's `StartNotify` names no device (BlueZ calls it
/// for the first subscriber and `StopNotify` after the last), so a subscription's central is one that
/// stands for every subscribed central.
public final class CBCentral: @unchecked Sendable {
    /// The central's identifier.
    public let identifier: UUID
    /// The most bytes one notification or indication to this central carries: the link's ATT MTU less
    /// three, or 20 (the smallest MTU's) when BlueZ does not say.
    public let maximumUpdateValueLength: Int

    @_spi(BlueZ) public init(identifier: UUID, maximumUpdateValueLength: Int) {
        self.identifier = identifier
        self.maximumUpdateValueLength = maximumUpdateValueLength
    }
}
