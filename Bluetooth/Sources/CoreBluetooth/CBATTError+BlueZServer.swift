extension CBATTError.Code {
    /// Linux extra: the D-Bus error a GATT application registered with BlueZ answers a `ReadValue` or
    /// `WriteValue` with, so that BlueZ answers the central with this code; `nil` for ``success``.
    ///
    /// BlueZ's GATT server maps `NotPermitted` to the read or write not permitted the request calls for,
    /// `NotAuthorized` to ``insufficientAuthorization``, `NotSupported` to ``requestNotSupported``,
    /// `InvalidOffset` and `InvalidValueLength` to theirs, and `Failed` with a message `0x80` … `0x9f` to
    /// that application error: the other codes have no D-Bus error of their own, so they are `Failed`
    /// `0x80`, and reach the central as the application error `0x80`.
    public var bluezServerError: (name: String, message: String)? {
        let prefix = BlueZErrorName.prefix
        switch self {
        case .success: return nil
        case .readNotPermitted: return (prefix + "NotPermitted", "Read not permitted")
        case .writeNotPermitted: return (prefix + "NotPermitted", "Write not permitted")
        case .insufficientAuthorization: return (prefix + "NotAuthorized", "Operation Not Authorized")
        case .requestNotSupported: return (prefix + "NotSupported", "Operation is not supported")
        case .invalidOffset: return (prefix + "InvalidOffset", "Invalid offset")
        case .invalidAttributeValueLength: return (prefix + "InvalidValueLength", "Invalid Length")
        default: return (prefix + "Failed", "0x80")
        }
    }
}
