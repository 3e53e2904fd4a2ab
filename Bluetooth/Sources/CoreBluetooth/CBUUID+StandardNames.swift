extension CBUUID: CustomStringConvertible {
    /// The Bluetooth SIG's name for a standard UUID (`"Heart Rate"`, `"Battery Level"`,
    /// `"Client Characteristic Configuration"`), as Apple's `CBUUID` prints it; ``uuidString`` for any
    /// other.
    public var description: String {
        standardName ?? uuidString
    }

    /// Linux extra: the Bluetooth SIG's name for a standard service, characteristic, descriptor or GATT
    /// declaration UUID, or `nil` when the UUID is not one this module knows.
    ///
    /// ``description`` falls back on ``uuidString`` for an unknown UUID; this property tells the two
    /// apart, so that a device browser can show `Heart Rate (180D)` for a known service and the bare UUID
    /// for a vendor's own.
    public var standardName: String? {
        guard let number = assignedNumber, let short = UInt16(exactly: number) else { return nil }
        return Self.standardName(forAssignedNumber: short)
    }

    /// Linux extra: the Bluetooth SIG's name for a 16-bit assigned number (`0x180D` is `"Heart Rate"`), or
    /// `nil` when it is not one this module knows.
    ///
    /// The table holds the SIG's GATT services (`0x18xx`), declarations (`0x280x`), descriptors (`0x29xx`)
    /// and the characteristics (`0x2Axx`, `0x2Bxx`) that the SIG's published profiles use; the numbers do
    /// not overlap, so one number names at most one attribute type.
    public static func standardName(forAssignedNumber number: UInt16) -> String? {
        StandardNames.all[number]
    }
}

/// The Bluetooth SIG's names for its assigned 16-bit GATT UUIDs, from the SIG's Assigned Numbers document.
enum StandardNames {
    /// Services, declarations, descriptors and characteristics in one table: their numbers do not overlap.
    static let all: [UInt16: String] = services.merging(declarations) { first, _ in first }
        .merging(descriptors) { first, _ in first }
        .merging(characteristics) { first, _ in first }
}
