@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift

extension Peripheral {
    /// The peripheral's services among `serviceUUIDs` (all if `nil`).
    ///
    /// BlueZ discovers a device's whole GATT database itself after connecting and says so with
    /// `ServicesResolved`; this waits for that, then answers from BlueZ's objects. Services already
    /// discovered are answered at once, as RxBluetoothKit does.
    public func discoverServices(_ serviceUUIDs: [CBUUID]?) -> Single<[Service]> {
        if let cached = peripheral.services, let uuids = serviceUUIDs {
            let found = cached.filter { uuids.contains($0.uuid) }
            if Set(found.map(\.uuid)).count == Set(uuids).count {
                return ensureValidPeripheralState(for: .just(found.map { Service(service: $0, peripheral: self) }))
                    .asSingle()
            }
        }
        let observable = servicesResolved().map { [weak self] _ -> [Service] in
            guard let self else { throw BluetoothError.destroyed }
            let all = self.gattServices()
            self.peripheral.services = all
            let wanted = serviceUUIDs.map(Set.init)
            return all.filter { wanted?.contains($0.uuid) ?? true }.map { Service(service: $0, peripheral: self) }
        }
        return ensureValidPeripheralState(for: observable).asSingle()
    }

    /// The services `service` includes, among `includedServiceUUIDs` (all if `nil`).
    public func discoverIncludedServices(_ includedServiceUUIDs: [CBUUID]?, for service: Service) -> Single<[Service]> {
        let observable = servicesResolved().map { [weak self] _ -> [Service] in
            guard let self else { throw BluetoothError.destroyed }
            guard let servicePath = DBusObjectPath(rawValue: service.service.objectPath),
                let properties = self.manager.model.properties(servicePath, BlueZ.gattService)
            else { throw BluetoothError.includedServicesDiscoveryFailed(self, CBError(.invalidHandle)) }
            let all = self.gattServices()
            let included = (properties["Includes"]?.array ?? []).compactMap(\.objectPath).compactMap { path in
                all.first { $0.objectPath == path.rawValue }
            }
            service.service.includedServices = included
            let wanted = includedServiceUUIDs.map(Set.init)
            return included.filter { wanted?.contains($0.uuid) ?? true }.map { Service(service: $0, peripheral: self) }
        }
        return ensureValidPeripheralState(for: observable).asSingle()
    }

    /// The characteristics of `service` among `characteristicUUIDs` (all if `nil`).
    public func discoverCharacteristics(_ characteristicUUIDs: [CBUUID]?, for service: Service) -> Single<
        [Characteristic]
    > {
        let observable = servicesResolved().map { [weak self] _ -> [Characteristic] in
            guard let self else { throw BluetoothError.destroyed }
            guard let servicePath = DBusObjectPath(rawValue: service.service.objectPath) else {
                throw BluetoothError.characteristicsDiscoveryFailed(service, CBError(.invalidHandle))
            }
            let all = self.manager.model.children(of: servicePath, with: BlueZ.gattCharacteristic).map {
                path, properties in
                self.characteristicObject(path, properties, in: service.service)
            }
            service.service.characteristics = all
            let wanted = characteristicUUIDs.map(Set.init)
            return all.filter { wanted?.contains($0.uuid) ?? true }.map {
                Characteristic(characteristic: $0, service: service)
            }
        }
        return ensureValidPeripheralState(for: observable).asSingle()
    }

    /// The descriptors of `characteristic`.
    public func discoverDescriptors(for characteristic: Characteristic) -> Single<[Descriptor]> {
        let observable = servicesResolved().map { [weak self] _ -> [Descriptor] in
            guard let self else { throw BluetoothError.destroyed }
            guard let path = DBusObjectPath(rawValue: characteristic.characteristic.objectPath) else {
                throw BluetoothError.descriptorsDiscoveryFailed(characteristic, CBError(.invalidHandle))
            }
            let all = self.manager.model.children(of: path, with: BlueZ.gattDescriptor).map {
                descriptorPath, properties in
                self.manager.object(at: descriptorPath, \.descriptors) {
                    let descriptor = CBDescriptor(
                        uuid: CBUUID(validating: properties["UUID"]?.string ?? "") ?? CBUUID(string: "0000"),
                        objectPath: descriptorPath.rawValue, characteristic: characteristic.characteristic)
                    if let value = properties["Value"]?.data { descriptor.value = value }
                    return descriptor
                }
            }
            characteristic.characteristic.descriptors = all
            return all.map { Descriptor(descriptor: $0, characteristic: characteristic) }
        }
        return ensureValidPeripheralState(for: observable).asSingle()
    }

    /// Emits once BlueZ has resolved the device's services (at once if it has).
    func servicesResolved() -> Observable<Void> {
        let path = self.path
        let model = manager.model
        let updates = manager.treeUpdates
        return Observable.deferred {
            let resolved = { model.properties(path, BlueZ.device)?["ServicesResolved"]?.bool == true }
            if resolved() { return .just(()) }
            return updates.filter { _ in resolved() }.map { _ in () }.take(1)
        }
    }

    /// BlueZ's service objects of this device, as (cached) CoreBluetooth services.
    private func gattServices() -> [CBService] {
        manager.model.children(of: path, with: BlueZ.gattService).map { servicePath, properties in
            manager.object(at: servicePath, \.services) {
                CBService(
                    uuid: CBUUID(validating: properties["UUID"]?.string ?? "") ?? CBUUID(string: "0000"),
                    objectPath: servicePath.rawValue, isPrimary: properties["Primary"]?.bool ?? true,
                    peripheral: peripheral)
            }
        }
    }

    private func characteristicObject(
        _ path: DBusObjectPath, _ properties: [String: DBusValue], in service: CBService
    ) -> CBCharacteristic {
        let characteristic = manager.object(at: path, \.characteristics) {
            CBCharacteristic(
                uuid: CBUUID(validating: properties["UUID"]?.string ?? "") ?? CBUUID(string: "0000"),
                objectPath: path.rawValue,
                properties: CBCharacteristicProperties(bluezFlags: properties["Flags"]?.strings ?? []),
                service: service)
        }
        characteristic.isNotifying = properties["Notifying"]?.bool ?? false
        if let value = properties["Value"]?.data { characteristic.value = value }
        characteristic.mtu = properties["MTU"]?.integer.map(Int.init)
        return characteristic
    }
}
