/// The names of BlueZ's D-Bus errors, `org.bluez.Error.*`, as the error mappings compare them.
enum BlueZErrorName {
    static let prefix = "org.bluez.Error."

    /// The part of `name` after `org.bluez.Error.`; a name without the prefix is taken as already short.
    static func short(_ name: String) -> Substring {
        name.hasPrefix(prefix) ? name.dropFirst(prefix.count) : Substring(name)
    }

    /// The message of BlueZ's GATT client for an ATT error it has no D-Bus error of its own for.
    static let attErrorMessagePrefix = "Operation failed with ATT error: "

    /// The ATT error code in a message `Operation failed with ATT error: 0x0e`, or `nil`.
    static func attErrorCode(in message: String?) -> Int? {
        guard let message, message.hasPrefix(attErrorMessagePrefix) else { return nil }
        var digits = message.dropFirst(attErrorMessagePrefix.count)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        return Int(digits, radix: 16)
    }
}
