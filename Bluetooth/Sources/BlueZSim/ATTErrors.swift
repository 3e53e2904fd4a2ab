import Foundation
import RxDBus

/// The ATT error codes between an application's D-Bus error (bluetoothd's GATT server,
/// `dbus_error_to_att_ecode`) and a central's D-Bus error (bluetoothd's GATT client,
/// `create_gatt_dbus_error`, with the documented names the simulation answers for invalid offsets
/// and lengths).
enum ATTError {
    static let readNotPermitted: UInt8 = 0x02
    static let writeNotPermitted: UInt8 = 0x03
    static let requestNotSupported: UInt8 = 0x06
    static let invalidOffset: UInt8 = 0x07
    static let authorization: UInt8 = 0x08
    static let invalidValueLength: UInt8 = 0x0D
    static let unlikely: UInt8 = 0x0E

    /// The code an application's error reply becomes: Failed with a number in 0x80…0x9f as its
    /// message is that application error (another message is 0x80, a number outside the range
    /// 0x0e), the other org.bluez errors their ATT codes, anything else (no reply, the application
    /// gone) Unlikely Error.
    static func code(forApplicationError error: any Error, read: Bool) -> UInt8 {
        guard let error = error as? DBusError else { return unlikely }
        switch error.name {
        case BlueZErrorName.failed:
            guard let number = number(error.message) else { return 0x80 }
            return (0x80...0x9F).contains(number) ? UInt8(number) : unlikely
        case BlueZErrorName.notSupported: return requestNotSupported
        case BlueZErrorName.notAuthorized: return authorization
        case BlueZErrorName.invalidValueLength: return invalidValueLength
        case BlueZErrorName.invalidOffset: return invalidOffset
        case BlueZErrorName.inProgress: return 0xFE
        case "org.bluez.Error.ImproperlyConfigured": return 0xFD
        case BlueZErrorName.notPermitted: return read ? readNotPermitted : writeNotPermitted
        default: return unlikely
        }
    }

    /// The error a central's ReadValue or WriteValue answers for an ATT error response.
    static func centralError(_ code: UInt8) -> DBusError {
        switch code {
        case readNotPermitted: BlueZError.notPermitted("Read not permitted")
        case writeNotPermitted: BlueZError.notPermitted("Write not permitted")
        case 0x05, 0x0C, 0x0F: BlueZError.notPermitted("Not paired")
        case invalidOffset: BlueZError.invalidOffset
        case invalidValueLength: BlueZError.invalidValueLength
        case authorization: BlueZError.notAuthorized
        case requestNotSupported: BlueZError.notSupported
        default: BlueZError.failed(String(format: "Operation failed with ATT error: 0x%02x", code))
        }
    }

    /// `strtol(message, 0)` as bluetoothd reads it: decimal, `0x` hex or `0` octal, all of the text.
    private static func number(_ text: String) -> Int? {
        let lower = text.lowercased()
        if lower.hasPrefix("0x") { return Int(lower.dropFirst(2), radix: 16) }
        if lower.count > 1 && lower.hasPrefix("0") { return Int(lower.dropFirst(), radix: 8) }
        return Int(lower)
    }
}
