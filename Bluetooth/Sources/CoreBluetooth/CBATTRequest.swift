import Foundation

/// A central's read or write of a characteristic that a peripheral manager publishes.
///
/// For a read, the program sets ``value`` to the characteristic's value from ``offset`` on before it
/// responds; for a write, ``value`` is what the central wrote at ``offset``.
public final class CBATTRequest: @unchecked Sendable {
    public let central: CBCentral
    public let characteristic: CBCharacteristic
    public let offset: Int
    private let _value: Guarded<Data?>
    /// Which pending D-Bus call the request answers. Linux only.
    @_spi(BlueZ) public let requestID: Int

    @_spi(BlueZ) public init(
        central: CBCentral, characteristic: CBCharacteristic, offset: Int, value: Data?, requestID: Int
    ) {
        self.central = central
        self.characteristic = characteristic
        self.offset = offset
        _value = Guarded(value)
        self.requestID = requestID
    }

    public var value: Data? {
        get { _value.value }
        set { _value.value = newValue }
    }
}
