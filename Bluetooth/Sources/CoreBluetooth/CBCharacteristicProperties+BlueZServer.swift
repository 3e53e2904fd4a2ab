extension CBCharacteristicProperties {
    /// Linux extra: the `Flags` of the `org.bluez.GattCharacteristic1` object a peripheral manager exports
    /// for a characteristic with these properties and `permissions`: ``bluezFlags``, with `read` and
    /// `write` made `encrypt-read` and `encrypt-write` where the permissions ask for encryption.
    public func bluezFlags(permissions: CBAttributePermissions) -> [String] {
        bluezFlags.map { flag in
            switch flag {
            case "read" where permissions.contains(.readEncryptionRequired): "encrypt-read"
            case "write" where permissions.contains(.writeEncryptionRequired): "encrypt-write"
            default: flag
            }
        }
    }
}
