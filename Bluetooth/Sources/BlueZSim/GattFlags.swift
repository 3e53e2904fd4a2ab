import RxDBus

/// The `Flags` bluetoothd accepts from an application's characteristic (`parse_chrc_flags`), and
/// the properties a central then sees: the characteristic declaration's property bits, as BlueZ's
/// GATT client names them (encryption and authorization requirements are permissions, not properties).
enum CharacteristicFlags {
    static let known: Set<String> = [
        "broadcast", "read", "write-without-response", "write", "notify", "indicate", "authenticated-signed-writes",
        "extended-properties", "reliable-write", "writable-auxiliaries", "encrypt-read", "encrypt-write",
        "encrypt-authenticated-read", "encrypt-authenticated-write", "secure-read", "secure-write", "authorize",
        "encrypt-notify", "encrypt-authenticated-notify", "secure-notify", "encrypt-indicate",
        "encrypt-authenticated-indicate", "secure-indicate",
    ]

    /// The central's `Flags` for an application's flags, in BlueZ's order.
    static func central(_ flags: [String]) -> [CharacteristicProfile.Flag] {
        let given = Set(flags)
        func any(_ names: String...) -> Bool { names.contains(where: given.contains) }
        var result: [CharacteristicProfile.Flag] = []
        if any("broadcast") { result.append(.broadcast) }
        if any("read", "encrypt-read", "encrypt-authenticated-read", "secure-read") { result.append(.read) }
        if any("write-without-response") { result.append(.writeWithoutResponse) }
        if any("write", "encrypt-write", "encrypt-authenticated-write", "secure-write") { result.append(.write) }
        if any("notify", "encrypt-notify", "encrypt-authenticated-notify", "secure-notify") { result.append(.notify) }
        if any("indicate", "encrypt-indicate", "encrypt-authenticated-indicate", "secure-indicate") {
            result.append(.indicate)
        }
        if any("authenticated-signed-writes") { result.append(.authenticatedSignedWrites) }
        let extended = any("reliable-write", "writable-auxiliaries")
        if extended || any("extended-properties") { result.append(.extendedProperties) }
        if any("reliable-write") { result.append(.reliableWrite) }
        if any("writable-auxiliaries") { result.append(.writableAuxiliaries) }
        return result
    }

    /// Whether the characteristic value may be written at all (bluetoothd's write permission).
    static func writable(_ flags: [String]) -> Bool {
        !Set(flags).isDisjoint(with: [
            "write-without-response", "write", "authenticated-signed-writes", "reliable-write", "encrypt-write",
            "encrypt-authenticated-write", "secure-write",
        ])
    }

    /// The Characteristic Extended Properties value (0x2900) bluetoothd adds for reliable-write or
    /// writable-auxiliaries.
    static func extendedProperties(_ flags: [String]) -> [UInt8]? {
        let bits = (flags.contains("reliable-write") ? 1 : 0) | (flags.contains("writable-auxiliaries") ? 2 : 0)
        return bits == 0 ? nil : [UInt8(bits), 0]
    }
}

/// The `Flags` bluetoothd accepts from an application's descriptor (`parse_desc_flags`).
enum DescriptorFlags {
    static let known: Set<String> = [
        "read", "write", "encrypt-read", "encrypt-write", "encrypt-authenticated-read", "encrypt-authenticated-write",
        "secure-read", "secure-write", "authorize",
    ]

    static func central(_ flags: [String]) -> [DescriptorProfile.Flag] {
        let given = Set(flags)
        var result: [DescriptorProfile.Flag] = []
        if !given.isDisjoint(with: ["read", "encrypt-read", "encrypt-authenticated-read", "secure-read"]) {
            result.append(.read)
        }
        if !given.isDisjoint(with: ["write", "encrypt-write", "encrypt-authenticated-write", "secure-write"]) {
            result.append(.write)
        }
        return result
    }
}

extension BluetoothUUID {
    /// A UUID as bluetoothd's `bt_string_to_uuid` takes it (16- or 32-bit hex, with or without `0x`,
    /// or the 128-bit form with dashes), in BlueZ's form; `nil` for anything else.
    static func parse(_ text: String) -> String? {
        var hex = text.lowercased()
        if hex.hasPrefix("0x") { hex.removeFirst(2) }
        let digits = Set("0123456789abcdef")
        switch hex.count {
        case 4, 8:
            guard hex.allSatisfy(digits.contains) else { return nil }
            return canonical(hex)
        case 36:
            let parts = hex.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.map(\.count) == [8, 4, 4, 4, 12], parts.allSatisfy({ $0.allSatisfy(digits.contains) }) else {
                return nil
            }
            return hex
        default:
            return nil
        }
    }
}
