import Foundation

/// A characteristic of a remote service.
open class CBCharacteristic: CBAttribute, @unchecked Sendable {
    private let _properties: Guarded<CBCharacteristicProperties>
    private let _value = Guarded<Data?>(nil)
    private let _isNotifying = Guarded(false)
    private let _descriptors = Guarded<[CBDescriptor]?>(nil)
    /// BlueZ's `MTU` of the characteristic's link, where BlueZ gives one. Linux only.
    private let _mtu = Guarded<Int?>(nil)
    public weak var service: CBService?

    @_spi(BlueZ) public init(
        uuid: CBUUID, objectPath: String, properties: CBCharacteristicProperties, service: CBService?
    ) {
        _properties = Guarded(properties)
        self.service = service
        super.init(uuid: uuid, objectPath: objectPath)
    }

    public var properties: CBCharacteristicProperties {
        get { _properties.value }
        @_spi(BlueZ) set { _properties.value = newValue }
    }

    public var value: Data? {
        get { _value.value }
        @_spi(BlueZ) set { _value.value = newValue }
    }

    public var isNotifying: Bool {
        get { _isNotifying.value }
        @_spi(BlueZ) set { _isNotifying.value = newValue }
    }

    public var descriptors: [CBDescriptor]? {
        get { _descriptors.value }
        @_spi(BlueZ) set { _descriptors.value = newValue }
    }

    /// The ATT MTU BlueZ reports for this characteristic's link. Linux only.
    public var mtu: Int? {
        get { _mtu.value }
        @_spi(BlueZ) set { _mtu.value = newValue }
    }
}
