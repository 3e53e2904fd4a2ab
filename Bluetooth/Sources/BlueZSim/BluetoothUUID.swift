/// UUIDs as BlueZ writes them on D-Bus: always the 128-bit form, in lower case. Profiles may name
/// SIG-assigned UUIDs by their 16- or 32-bit short form ("180D", "0x2a37"); everything the
/// simulation puts on the bus goes through ``canonical(_:)`` first.
public enum BluetoothUUID {
    /// The Bluetooth base UUID after its first 32 bits.
    static let baseSuffix = "-0000-1000-8000-00805f9b34fb"

    /// The 128-bit lower-case form of `uuid` (a 16-bit, 32-bit or 128-bit UUID, with or without `0x`).
    public static func canonical(_ uuid: String) -> String {
        var hex = uuid.lowercased()
        if hex.hasPrefix("0x") { hex.removeFirst(2) }
        switch hex.count {
        case 4: return "0000" + hex + baseSuffix
        case 8: return hex + baseSuffix
        default: return hex
        }
    }

    /// Whether `uuid` names the same UUID as `other`, whatever their forms.
    static func same(_ uuid: String, _ other: String) -> Bool { canonical(uuid) == canonical(other) }

    /// The Client Characteristic Configuration descriptor, which BlueZ exports but lets no one write
    /// (notifications are switched with StartNotify / StopNotify).
    static let clientCharacteristicConfiguration = canonical("2902")
}
