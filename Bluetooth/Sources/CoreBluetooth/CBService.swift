import Foundation

/// A GATT service of a remote device.
open class CBService: CBAttribute, @unchecked Sendable {
    private let _isPrimary: Guarded<Bool>
    private let _includedServices = Guarded<[CBService]?>(nil)
    private let _characteristics = Guarded<[CBCharacteristic]?>(nil)
    public weak var peripheral: CBPeripheral?

    @_spi(BlueZ) public init(uuid: CBUUID, objectPath: String, isPrimary: Bool, peripheral: CBPeripheral?) {
        _isPrimary = Guarded(isPrimary)
        self.peripheral = peripheral
        super.init(uuid: uuid, objectPath: objectPath)
    }

    public var isPrimary: Bool { _isPrimary.value }

    public var includedServices: [CBService]? {
        get { _includedServices.value }
        @_spi(BlueZ) set { _includedServices.value = newValue }
    }

    public var characteristics: [CBCharacteristic]? {
        get { _characteristics.value }
        @_spi(BlueZ) set { _characteristics.value = newValue }
    }
}
