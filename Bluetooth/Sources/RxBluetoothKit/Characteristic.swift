@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift

/// A characteristic of a service.
public class Characteristic: @unchecked Sendable {
    public let characteristic: CBCharacteristic
    public let service: Service

    init(characteristic: CBCharacteristic, service: Service) {
        self.characteristic = characteristic
        self.service = service
    }

    /// Wraps a characteristic of `peripheral`.
    public convenience init(characteristic: CBCharacteristic, peripheral: Peripheral) {
        let service =
            characteristic.service
            ?? CBService(uuid: CBUUID(string: "0000"), objectPath: "", isPrimary: true, peripheral: nil)
        self.init(characteristic: characteristic, service: Service(service: service, peripheral: peripheral))
    }

    var path: DBusObjectPath { DBusObjectPath(rawValue: characteristic.objectPath) ?? .root }

    public var value: Data? { characteristic.value }
    public var uuid: CBUUID { characteristic.uuid }
    public var isNotifying: Bool { characteristic.isNotifying }
    public var properties: CBCharacteristicProperties { characteristic.properties }
    public var descriptors: [Descriptor]? {
        characteristic.descriptors?.map { Descriptor(descriptor: $0, characteristic: self) }
    }

    public func discoverDescriptors() -> Single<[Descriptor]> { service.peripheral.discoverDescriptors(for: self) }
    public func observeWrite() -> Observable<Characteristic> { service.peripheral.observeWrite(for: self) }
    public func observeNotifyValue() -> Observable<Characteristic> { service.peripheral.observeNotifyValue(for: self) }

    public func writeValue(_ data: Data, type: CBCharacteristicWriteType) -> Single<Characteristic> {
        service.peripheral.writeValue(data, for: self, type: type)
    }

    public func observeValueUpdate() -> Observable<Characteristic> { service.peripheral.observeValueUpdate(for: self) }
    public func readValue() -> Single<Characteristic> { service.peripheral.readValue(for: self) }

    public func observeValueUpdateAndSetNotification() -> Observable<Characteristic> {
        service.peripheral.observeValueUpdateAndSetNotification(for: self)
    }
}

extension Characteristic: Equatable {
    public static func == (lhs: Characteristic, rhs: Characteristic) -> Bool {
        lhs.characteristic === rhs.characteristic
    }
}
