import Foundation
import Synchronization

/// What services, characteristics and descriptors have in common: a UUID. On Linux these objects
/// stand for BlueZ's D-Bus objects (``objectPath``); RxBluetoothKit creates them and keeps their state
/// current from BlueZ's signals, so they are read here and written only through the `BlueZ` SPI.
open class CBAttribute: @unchecked Sendable {
    public let uuid: CBUUID
    private let _objectPath: Guarded<String>

    public init(uuid: CBUUID, objectPath: String) {
        self.uuid = uuid
        _objectPath = Guarded(objectPath)
    }

    /// The BlueZ object this attribute stands for (`/org/bluez/hci0/dev_…/service0010`), or, for a
    /// service a peripheral manager publishes, the object it exports (empty until the service is added).
    /// Linux only.
    public var objectPath: String {
        get { _objectPath.value }
        @_spi(BlueZ) set { _objectPath.value = newValue }
    }
}

/// A value guarded by a lock, for the attribute objects' state that BlueZ's signals update on one
/// thread while the program reads it on another.
final class Guarded<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
