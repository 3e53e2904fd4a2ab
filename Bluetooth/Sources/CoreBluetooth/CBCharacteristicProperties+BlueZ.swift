extension CBCharacteristicProperties {
    /// Linux extra: the properties that BlueZ's `Flags` strings describe, as found on an
    /// `org.bluez.GattCharacteristic1` object, or as a GATT application gives them to BlueZ.
    ///
    /// BlueZ spells security requirements into its flags, where CoreBluetooth keeps them apart (in
    /// ``CBAttributePermissions``); each flag gives the property it implies:
    ///
    /// - `"encrypt-read"`, `"encrypt-authenticated-read"` and `"secure-read"` are ``read``; the `write`
    ///   forms are ``write``.
    /// - `"encrypt-notify"`, `"encrypt-authenticated-notify"` and `"secure-notify"` are ``notify`` with
    ///   ``notifyEncryptionRequired``; the `indicate` forms are ``indicate`` with
    ///   ``indicateEncryptionRequired``.
    /// - `"reliable-write"` and `"writable-auxiliaries"` live in the Characteristic Extended Properties
    ///   descriptor, so they are ``extendedProperties``.
    /// - `"authorize"`, and any flag this module does not know, add nothing.
    public init(bluezFlags: some Sequence<String>) {
        var properties: CBCharacteristicProperties = []
        for flag in bluezFlags {
            switch flag {
            case "broadcast": properties.insert(.broadcast)
            case "read", "encrypt-read", "encrypt-authenticated-read", "secure-read": properties.insert(.read)
            case "write-without-response": properties.insert(.writeWithoutResponse)
            case "write", "encrypt-write", "encrypt-authenticated-write", "secure-write": properties.insert(.write)
            case "notify": properties.insert(.notify)
            case "encrypt-notify", "encrypt-authenticated-notify", "secure-notify":
                properties.formUnion([.notify, .notifyEncryptionRequired])
            case "indicate": properties.insert(.indicate)
            case "encrypt-indicate", "encrypt-authenticated-indicate", "secure-indicate":
                properties.formUnion([.indicate, .indicateEncryptionRequired])
            case "authenticated-signed-writes": properties.insert(.authenticatedSignedWrites)
            case "extended-properties", "reliable-write", "writable-auxiliaries":
                properties.insert(.extendedProperties)
            default: break
            }
        }
        self = properties
    }

    /// Linux extra: BlueZ's `Flags` strings for these properties, in the order of the properties' bits:
    /// what a GATT application registered with BlueZ gives as a characteristic's `Flags`.
    ///
    /// ``notifyEncryptionRequired`` gives `"encrypt-notify"` in place of `"notify"` (BlueZ's flag implies
    /// notifications), and ``indicateEncryptionRequired`` gives `"encrypt-indicate"` in place of
    /// `"indicate"`. `CBCharacteristicProperties(bluezFlags: properties.bluezFlags)` gives back
    /// `properties`, except that either encryption requirement brings its `notify` or `indicate` with it.
    public var bluezFlags: [String] {
        var flags: [String] = []
        if contains(.broadcast) { flags.append("broadcast") }
        if contains(.read) { flags.append("read") }
        if contains(.writeWithoutResponse) { flags.append("write-without-response") }
        if contains(.write) { flags.append("write") }
        if contains(.notifyEncryptionRequired) {
            flags.append("encrypt-notify")
        } else if contains(.notify) {
            flags.append("notify")
        }
        if contains(.indicateEncryptionRequired) {
            flags.append("encrypt-indicate")
        } else if contains(.indicate) {
            flags.append("indicate")
        }
        if contains(.authenticatedSignedWrites) { flags.append("authenticated-signed-writes") }
        if contains(.extendedProperties) { flags.append("extended-properties") }
        return flags
    }
}
