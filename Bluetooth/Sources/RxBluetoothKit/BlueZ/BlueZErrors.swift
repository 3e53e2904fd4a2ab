@_spi(BlueZ) import CoreBluetooth
import RxDBus

/// BlueZ's D-Bus errors as CoreBluetooth's: attribute operations get `CBATTError` where one fits,
/// the rest `CBError`; an error neither can express stays the `DBusError` it was, so no detail is lost.
enum BlueZErrors {
    static func attribute(_ error: Error, isWrite: Bool = false) -> Error {
        guard let dbus = error as? DBusError else { return error }
        if let att = CBATTError(bluezErrorName: dbus.name, message: dbus.message, isWrite: isWrite) { return att }
        return general(dbus)
    }

    static func general(_ error: Error) -> Error {
        guard let dbus = error as? DBusError else { return error }
        return CBError(bluezErrorName: dbus.name, message: dbus.message) ?? dbus
    }
}
