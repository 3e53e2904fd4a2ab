import Foundation

/// A descriptor of a remote characteristic.
open class CBDescriptor: CBAttribute, @unchecked Sendable {
    private let _value = Guarded<Data?>(nil)
    public weak var characteristic: CBCharacteristic?

    @_spi(BlueZ) public init(uuid: CBUUID, objectPath: String, characteristic: CBCharacteristic?) {
        self.characteristic = characteristic
        super.init(uuid: uuid, objectPath: objectPath)
    }

    /// The raw bytes BlueZ read. (CoreBluetooth decodes some descriptors into strings and numbers; BlueZ
    /// gives bytes, and so does this.)
    public var value: Any? {
        get { _value.value }
        @_spi(BlueZ) set { _value.value = newValue as? Data }
    }
}
