import Dispatch

/// BlueZ's D-Bus names (its `doc/org.bluez.*.rst`).
enum BlueZ {
    static let service = "org.bluez"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let gattService = "org.bluez.GattService1"
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    static let gattDescriptor = "org.bluez.GattDescriptor1"
    /// BlueZ gives up a connection attempt itself after about 40 s; the call waits a little longer.
    static let connectTimeout: DispatchTimeInterval = .seconds(60)
}
