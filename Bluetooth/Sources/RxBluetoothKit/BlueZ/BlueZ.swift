import Dispatch
import RxDBus
import RxSwift

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

    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set), or, when it cannot be reached, a bus whose
    /// every call fails with the reason: a manager on it is `unsupported` and says why.
    static func systemBus() -> any DBusEndpoint {
        do {
            return try DBusConnection.system()
        } catch {
            return UnreachableBus(error: error as? DBusError ?? DBusError(wrapping: error))
        }
    }

    /// Where a manager made with a dispatch queue delivers: the main scheduler for the main queue,
    /// else a serial scheduler on `queue`.
    static func deliveryScheduler(_ queue: DispatchQueue, name: String) -> any SchedulerType {
        queue === DispatchQueue.main
            ? MainScheduler.instance : SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: name)
    }
}
