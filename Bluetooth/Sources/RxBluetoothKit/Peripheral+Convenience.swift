@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxSwift

// RxBluetoothKit's conveniences that find a service, characteristic or descriptor by identifier,
// discovering what they must first.
extension Peripheral {
    public func service(with identifier: ServiceIdentifier) -> Single<Service> {
        .deferred { [weak self] in
            guard let self else { throw BluetoothError.destroyed }
            if let service = self.services?.first(where: { $0.uuid == identifier.uuid }) { return .just(service) }
            return self.discoverServices([identifier.uuid]).map { services in
                guard let service = services.first(where: { $0.uuid == identifier.uuid }) else {
                    throw RxError.noElements
                }
                return service
            }
        }
    }

    public func characteristic(with identifier: CharacteristicIdentifier) -> Single<Characteristic> {
        service(with: identifier.service).flatMap { service -> Single<Characteristic> in
            if let characteristic = service.characteristics?.first(where: { $0.uuid == identifier.uuid }) {
                return .just(characteristic)
            }
            return service.discoverCharacteristics([identifier.uuid]).map { characteristics in
                guard let characteristic = characteristics.first(where: { $0.uuid == identifier.uuid }) else {
                    throw RxError.noElements
                }
                return characteristic
            }
        }
    }

    public func descriptor(with identifier: DescriptorIdentifier) -> Single<Descriptor> {
        characteristic(with: identifier.characteristic).flatMap { characteristic -> Single<Descriptor> in
            if let descriptor = characteristic.descriptors?.first(where: { $0.uuid == identifier.uuid }) {
                return .just(descriptor)
            }
            return characteristic.discoverDescriptors().map { descriptors in
                guard let descriptor = descriptors.first(where: { $0.uuid == identifier.uuid }) else {
                    throw RxError.noElements
                }
                return descriptor
            }
        }
    }

    public func observeWrite(for identifier: CharacteristicIdentifier) -> Observable<Characteristic> {
        characteristic(with: identifier).asObservable().flatMap {
            [weak self] characteristic -> Observable<Characteristic> in
            guard let self else { throw BluetoothError.destroyed }
            return self.observeWrite(for: characteristic)
        }
    }

    public func writeValue(
        _ data: Data, for identifier: CharacteristicIdentifier, type: CBCharacteristicWriteType
    ) -> Single<Characteristic> {
        characteristic(with: identifier).flatMap { [weak self] characteristic in
            guard let self else { throw BluetoothError.destroyed }
            return self.writeValue(data, for: characteristic, type: type)
        }
    }

    public func observeValueUpdate(for identifier: CharacteristicIdentifier) -> Observable<Characteristic> {
        characteristic(with: identifier).asObservable().flatMap {
            [weak self] characteristic -> Observable<Characteristic> in
            guard let self else { throw BluetoothError.destroyed }
            return self.observeValueUpdate(for: characteristic)
        }
    }

    public func readValue(for identifier: CharacteristicIdentifier) -> Single<Characteristic> {
        characteristic(with: identifier).flatMap { [weak self] characteristic in
            guard let self else { throw BluetoothError.destroyed }
            return self.readValue(for: characteristic)
        }
    }

    public func observeValueUpdateAndSetNotification(for identifier: CharacteristicIdentifier) -> Observable<
        Characteristic
    > {
        characteristic(with: identifier).asObservable().flatMap {
            [weak self] characteristic -> Observable<Characteristic> in
            guard let self else { throw BluetoothError.destroyed }
            return self.observeValueUpdateAndSetNotification(for: characteristic)
        }
    }

    public func discoverDescriptors(for identifier: CharacteristicIdentifier) -> Single<[Descriptor]> {
        characteristic(with: identifier).flatMap { [weak self] characteristic in
            guard let self else { throw BluetoothError.destroyed }
            return self.discoverDescriptors(for: characteristic)
        }
    }

    public func observeWrite(for identifier: DescriptorIdentifier) -> Observable<Descriptor> {
        descriptor(with: identifier).asObservable().flatMap { [weak self] descriptor -> Observable<Descriptor> in
            guard let self else { throw BluetoothError.destroyed }
            return self.observeWrite(for: descriptor)
        }
    }

    public func writeValue(_ data: Data, for identifier: DescriptorIdentifier) -> Single<Descriptor> {
        descriptor(with: identifier).flatMap { [weak self] descriptor in
            guard let self else { throw BluetoothError.destroyed }
            return self.writeValue(data, for: descriptor)
        }
    }

    public func observeValueUpdate(for identifier: DescriptorIdentifier) -> Observable<Descriptor> {
        descriptor(with: identifier).asObservable().flatMap { [weak self] descriptor -> Observable<Descriptor> in
            guard let self else { throw BluetoothError.destroyed }
            return self.observeValueUpdate(for: descriptor)
        }
    }

    public func readValue(for identifier: DescriptorIdentifier) -> Single<Descriptor> {
        descriptor(with: identifier).flatMap { [weak self] descriptor in
            guard let self else { throw BluetoothError.destroyed }
            return self.readValue(for: descriptor)
        }
    }
}
