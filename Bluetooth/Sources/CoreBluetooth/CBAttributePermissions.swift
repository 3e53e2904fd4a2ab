/// Who may read and write the value of a characteristic or descriptor that a peripheral manager publishes.
///
/// Properties (``CBCharacteristicProperties``) say what a characteristic offers to centrals; permissions say
/// what the local attribute accepts, including whether the link must be encrypted.
public struct CBAttributePermissions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The value can be read.
    public static let readable = CBAttributePermissions(rawValue: 0x01)

    /// The value can be written.
    public static let writeable = CBAttributePermissions(rawValue: 0x02)

    /// The value can be read only by a paired (trusted) central.
    public static let readEncryptionRequired = CBAttributePermissions(rawValue: 0x04)

    /// The value can be written only by a paired (trusted) central.
    public static let writeEncryptionRequired = CBAttributePermissions(rawValue: 0x08)
}
