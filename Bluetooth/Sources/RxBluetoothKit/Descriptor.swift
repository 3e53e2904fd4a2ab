@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxSwift

/// A descriptor of a characteristic.
public class Descriptor: @unchecked Sendable {
    public let descriptor: CBDescriptor
    public let characteristic: Characteristic

    init(descriptor: CBDescriptor, characteristic: Characteristic) {
        self.descriptor = descriptor
        self.characteristic = characteristic
    }

    public var uuid: CBUUID { descriptor.uuid }
    /// The bytes last read (BlueZ gives bytes for every descriptor).
    public var value: Any? { descriptor.value }

    public func observeWrite() -> Observable<Descriptor> { characteristic.service.peripheral.observeWrite(for: self) }
    public func writeValue(_ data: Data) -> Single<Descriptor> {
        characteristic.service.peripheral.writeValue(data, for: self)
    }
    public func observeValueUpdate() -> Observable<Descriptor> {
        characteristic.service.peripheral.observeValueUpdate(for: self)
    }
    public func readValue() -> Single<Descriptor> { characteristic.service.peripheral.readValue(for: self) }
}

extension Descriptor: Equatable {
    public static func == (lhs: Descriptor, rhs: Descriptor) -> Bool { lhs.descriptor === rhs.descriptor }
}
