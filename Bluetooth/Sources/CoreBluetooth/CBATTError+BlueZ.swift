import Foundation

extension CBATTError {
    /// Linux extra: the ATT error that a D-Bus error from BlueZ's GATT API stands for, or `nil` when the
    /// error is not one a GATT server answered with.
    ///
    /// BlueZ's GATT client (`org.bluez.GattCharacteristic1` and `org.bluez.GattDescriptor1`: `ReadValue`,
    /// `WriteValue`, `StartNotify`) turns the remote server's ATT errors into D-Bus errors; this reverses
    /// that:
    ///
    /// | D-Bus error (message)                                        | Code                              |
    /// |--------------------------------------------------------------|-----------------------------------|
    /// | `NotPermitted` (`Read not permitted`)                        | ``Code/readNotPermitted``         |
    /// | `NotPermitted` (`Write not permitted`)                       | ``Code/writeNotPermitted``        |
    /// | `NotPermitted` (`Not paired`)                                | ``Code/insufficientAuthentication`` |
    /// | `NotPermitted` (any other message)                           | read or write not permitted, by `isWrite` |
    /// | `NotAuthorized`                                              | ``Code/insufficientAuthorization`` |
    /// | `NotSupported`                                               | ``Code/requestNotSupported``      |
    /// | `InvalidOffset`, `InvalidArguments` (`Invalid offset`)       | ``Code/invalidOffset``            |
    /// | `InvalidValueLength`, `InvalidArguments` (`Invalid Length`)  | ``Code/invalidAttributeValueLength`` |
    /// | `Failed` (`Operation failed with ATT error: 0x0e`)           | the code in the message           |
    ///
    /// BlueZ reports an insufficient encryption or encryption key size as `Not paired` too, so those come
    /// back as ``Code/insufficientAuthentication``. Everything else is `nil`: `NotPermitted` with
    /// `Write acquired` or `Notify acquired` (a local lock, not the server's answer), `InvalidArguments`
    /// for a bad call, `Failed` with any other message, `InProgress`, `NotConnected`,
    /// `ImproperlyConfigured`, and names from outside `org.bluez.Error`. ``CBError/init(bluezErrorName:message:)``
    /// maps those that CoreBluetooth has a ``CBError`` for.
    ///
    /// - Parameters:
    ///   - name: The D-Bus error name, `org.bluez.Error.NotPermitted`; the name without the
    ///     `org.bluez.Error.` prefix is accepted too.
    ///   - message: The D-Bus error's message, which tells several of BlueZ's errors apart.
    ///   - isWrite: Whether the failed call was a write, for a `NotPermitted` whose message does not say.
    public init?(bluezErrorName name: String, message: String? = nil, isWrite: Bool = false) {
        let code: Code
        switch BlueZErrorName.short(name) {
        case "NotPermitted":
            switch message {
            case "Read not permitted": code = .readNotPermitted
            case "Write not permitted": code = .writeNotPermitted
            case "Not paired": code = .insufficientAuthentication
            case "Write acquired", "Notify acquired": return nil
            default: code = isWrite ? .writeNotPermitted : .readNotPermitted
            }
        case "NotAuthorized": code = .insufficientAuthorization
        case "NotSupported": code = .requestNotSupported
        case "InvalidOffset": code = .invalidOffset
        case "InvalidValueLength": code = .invalidAttributeValueLength
        case "InvalidArguments":
            switch message {
            case "Invalid offset": code = .invalidOffset
            case "Invalid Length": code = .invalidAttributeValueLength
            default: return nil
            }
        case "Failed":
            guard let raw = BlueZErrorName.attErrorCode(in: message), let known = Code(rawValue: raw), known != .success
            else { return nil }
            code = known
        default:
            return nil
        }
        self.init(code, userInfo: [NSDebugDescriptionErrorKey: message.map { "\(name): \($0)" } ?? name])
    }
}

extension CBATTError.Code {
    /// Linux extra: the D-Bus error BlueZ's GATT client replies with when the remote server answers a read
    /// or a write with this code: what a simulated BlueZ replies with to behave like the real one.
    ///
    /// `CBATTError(bluezErrorName: e.name, message: e.message)` gives the code back, except for
    /// ``insufficientEncryption`` and ``insufficientEncryptionKeySize``, which BlueZ reports as
    /// ``insufficientAuthentication`` does, and ``success``, which is no error.
    public var bluezClientError: (name: String, message: String) {
        let prefix = BlueZErrorName.prefix
        switch self {
        case .readNotPermitted: return (prefix + "NotPermitted", "Read not permitted")
        case .writeNotPermitted: return (prefix + "NotPermitted", "Write not permitted")
        case .insufficientAuthentication, .insufficientEncryption, .insufficientEncryptionKeySize:
            return (prefix + "NotPermitted", "Not paired")
        case .invalidOffset: return (prefix + "InvalidArguments", "Invalid offset")
        case .invalidAttributeValueLength: return (prefix + "InvalidArguments", "Invalid Length")
        case .insufficientAuthorization: return (prefix + "NotAuthorized", "Operation Not Authorized")
        case .requestNotSupported: return (prefix + "NotSupported", "Operation is not supported")
        case .success: return (prefix + "Failed", "Operation failed")
        default:
            return (
                prefix + "Failed",
                BlueZErrorName.attErrorMessagePrefix + "0x" + CBUUID.hex(UInt64(rawValue), digits: 2, upper: false)
            )
        }
    }
}
