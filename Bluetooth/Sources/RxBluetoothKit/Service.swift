@_spi(BlueZ) import CoreBluetooth
import RxSwift

/// A GATT service of a peripheral.
public class Service: @unchecked Sendable {
    public let service: CBService
    public let peripheral: Peripheral

    init(service: CBService, peripheral: Peripheral) {
        self.service = service
        self.peripheral = peripheral
    }

    public var isPrimary: Bool { service.isPrimary }
    public var uuid: CBUUID { service.uuid }
    public var includedServices: [Service]? {
        service.includedServices?.map { Service(service: $0, peripheral: peripheral) }
    }
    public var characteristics: [Characteristic]? {
        service.characteristics?.map { Characteristic(characteristic: $0, service: self) }
    }

    public func discoverCharacteristics(_ characteristicUUIDs: [CBUUID]?) -> Single<[Characteristic]> {
        peripheral.discoverCharacteristics(characteristicUUIDs, for: self)
    }

    public func discoverIncludedServices(_ includedServiceUUIDs: [CBUUID]?) -> Single<[Service]> {
        peripheral.discoverIncludedServices(includedServiceUUIDs, for: self)
    }
}

extension Service: Equatable {
    public static func == (lhs: Service, rhs: Service) -> Bool { lhs.service === rhs.service }
}
