/// What a characteristic's value allows: reading, writing, notifications and so on.
///
/// The raw values are the bits of the characteristic declaration's properties field in the Bluetooth Core
/// Specification, as in Apple's CoreBluetooth, except the two `...EncryptionRequired` members, which Apple
/// adds above the specification's eight bits for services published by a peripheral manager.
public struct CBCharacteristicProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The value can be broadcast in advertising data through the Server Characteristic Configuration
    /// descriptor.
    public static let broadcast = CBCharacteristicProperties(rawValue: 0x01)

    /// The value can be read.
    public static let read = CBCharacteristicProperties(rawValue: 0x02)

    /// The value can be written without a response from the peripheral.
    public static let writeWithoutResponse = CBCharacteristicProperties(rawValue: 0x04)

    /// The value can be written, and the peripheral confirms each write.
    public static let write = CBCharacteristicProperties(rawValue: 0x08)

    /// The peripheral can notify value changes, without confirmation from the central.
    public static let notify = CBCharacteristicProperties(rawValue: 0x10)

    /// The peripheral can indicate value changes, each confirmed by the central.
    public static let indicate = CBCharacteristicProperties(rawValue: 0x20)

    /// The value can be written with a signature instead of an encrypted link.
    public static let authenticatedSignedWrites = CBCharacteristicProperties(rawValue: 0x40)

    /// The characteristic has a Characteristic Extended Properties descriptor (reliable writes, writable
    /// user description).
    public static let extendedProperties = CBCharacteristicProperties(rawValue: 0x80)

    /// Only a paired (trusted) central can turn notifications on.
    public static let notifyEncryptionRequired = CBCharacteristicProperties(rawValue: 0x100)

    /// Only a paired (trusted) central can turn indications on.
    public static let indicateEncryptionRequired = CBCharacteristicProperties(rawValue: 0x200)
}
