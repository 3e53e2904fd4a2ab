import Foundation

/// A service that a peripheral manager publishes: its characteristics and included services are set by
/// the program before the service is added.
///
/// On Linux the peripheral manager exports it to BlueZ as an `org.bluez.GattService1` object, whose
/// path becomes the service's ``CBAttribute/objectPath`` when it is added.
open class CBMutableService: CBService, @unchecked Sendable {
    public init(type UUID: CBUUID, primary isPrimary: Bool) {
        super.init(uuid: UUID, objectPath: "", isPrimary: isPrimary, peripheral: nil)
    }

    override public var characteristics: [CBCharacteristic]? {
        get { super.characteristics }
        set { super.characteristics = newValue }
    }

    override public var includedServices: [CBService]? {
        get { super.includedServices }
        set { super.includedServices = newValue }
    }
}
