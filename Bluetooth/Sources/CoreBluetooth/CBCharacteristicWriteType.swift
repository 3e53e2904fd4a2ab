/// How a central writes a characteristic's value.
public enum CBCharacteristicWriteType: Int, Sendable, Hashable {
    /// The peripheral confirms the write, and reports an error when it refuses it.
    case withResponse = 0

    /// The write is sent without confirmation: faster, but the central never learns whether it arrived.
    case withoutResponse = 1
}

extension CBCharacteristicWriteType {
    /// Linux extra: the `type` option of BlueZ's `WriteValue`: `"request"` for a write with response,
    /// `"command"` for one without.
    public var bluezWriteType: String {
        switch self {
        case .withResponse: "request"
        case .withoutResponse: "command"
        }
    }
}
