/// A key of the options a central manager registers for connection events with: which connections and
/// disconnections to report as ``CBConnectionEvent``s.
///
/// Apple's Swift overlay has these as a string-backed struct, not as global constants, so code writes
/// `[CBConnectionEventMatchingOption.serviceUUIDs: uuids]`; this type has the same shape and raw values.
public struct CBConnectionEventMatchingOption: RawRepresentable, Sendable, Hashable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Report peers that have any of these services, a `[CBUUID]`.
    public static let serviceUUIDs = CBConnectionEventMatchingOption(
        rawValue: "kCBConnectionEventMatchingOptionServiceUUIDs")

    /// Report these peers, a `[UUID]` of peripheral identifiers.
    public static let peripheralUUIDs = CBConnectionEventMatchingOption(
        rawValue: "kCBConnectionEventMatchingOptionPeripheralUUIDs")
}
