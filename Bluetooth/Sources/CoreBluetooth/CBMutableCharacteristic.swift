import Foundation

/// A characteristic of a service that a peripheral manager publishes.
///
/// As with CoreBluetooth, a characteristic created with a `value` has that value cached: reads of it are
/// answered by the stack without asking the program, and it should be read-only. One created with a
/// `nil` value has a dynamic value, which the program gives in its answer to each read request.
open class CBMutableCharacteristic: CBCharacteristic, @unchecked Sendable {
    private let _permissions: Guarded<CBAttributePermissions>
    private let _subscribedCentrals = Guarded<[CBCentral]?>(nil)

    public init(
        type UUID: CBUUID, properties: CBCharacteristicProperties, value: Data?, permissions: CBAttributePermissions
    ) {
        _permissions = Guarded(permissions)
        super.init(uuid: UUID, objectPath: "", properties: properties, service: nil)
        super.value = value
    }

    /// What the attribute accepts: reads, writes, and whether they need an encrypted link.
    public var permissions: CBAttributePermissions {
        get { _permissions.value }
        set { _permissions.value = newValue }
    }

    override public var properties: CBCharacteristicProperties {
        get { super.properties }
        set { super.properties = newValue }
    }

    override public var value: Data? {
        get { super.value }
        set { super.value = newValue }
    }

    override public var descriptors: [CBDescriptor]? {
        get { super.descriptors }
        set { super.descriptors = newValue }
    }

    /// The centrals subscribed to the characteristic's notifications or indications. On Linux BlueZ does
    /// not say which centrals they are (see ``CBCentral``), so this holds one central that stands for all
    /// of them while any is subscribed.
    public var subscribedCentrals: [CBCentral]? {
        get { _subscribedCentrals.value }
        @_spi(BlueZ) set { _subscribedCentrals.value = newValue }
    }
}
