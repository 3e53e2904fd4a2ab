@_spi(BlueZ) import CoreBluetooth

/// A service a program knows by UUID: an enum of a device's services usually conforms.
public protocol ServiceIdentifier {
    var uuid: CBUUID { get }
}

/// A characteristic a program knows by UUID, with the service it is in.
public protocol CharacteristicIdentifier {
    var uuid: CBUUID { get }
    var service: ServiceIdentifier { get }
}

/// A descriptor a program knows by UUID, with its characteristic.
public protocol DescriptorIdentifier {
    var uuid: CBUUID { get }
    var characteristic: CharacteristicIdentifier { get }
}
