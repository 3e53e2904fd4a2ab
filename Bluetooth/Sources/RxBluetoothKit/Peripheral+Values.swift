@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift

extension Peripheral {
    /// Reads a characteristic (`GattCharacteristic1.ReadValue`); the value is then its `value`, and
    /// `observeValueUpdate(for:)` sees it too, as with CoreBluetooth.
    public func readValue(for characteristic: Characteristic) -> Single<Characteristic> {
        let target = characteristic.characteristic
        let observable = characteristicValueEvents.filter { $0.0 === target }.take(1).map {
            _, error -> Characteristic in
            if let error { throw BluetoothError.characteristicReadFailed(characteristic, error) }
            return characteristic
        }
        return ensureValidPeripheralStateAndCallIfSucceeded(for: observable) { [weak self] in
            self?.perform(target, "ReadValue", [.vardict([:])]) { result in
                if case .success(let body) = result, let bytes = body.first?.bytes { target.value = Data(bytes) }
                self?.characteristicValueEvents.onNext((target, result.error.map { BlueZErrors.attribute($0) }))
            }
        }.asSingle()
    }

    /// Writes a characteristic (`GattCharacteristic1.WriteValue` with `type` `request` or `command`).
    /// With response, it succeeds once the device acknowledged the write, and `observeWrite(for:)`
    /// sees it; without, once BlueZ took it, and no one else hears of it (CoreBluetooth reports writes
    /// without response to no delegate either).
    public func writeValue(
        _ data: Data, for characteristic: Characteristic, type: CBCharacteristicWriteType,
        canSendWriteWithoutResponseCheckEnabled: Bool = true
    ) -> Single<Characteristic> {
        let target = characteristic.characteristic
        let withResponse = type != .withoutResponse
        let options: [String: DBusValue] = ["type": .string(withResponse ? "request" : "command")]
        let results = withResponse ? characteristicWrites : PublishSubject<(CBCharacteristic, Error?)>()
        let observable = results.filter { $0.0 === target }.take(1).map { _, error -> Characteristic in
            if let error { throw BluetoothError.characteristicWriteFailed(characteristic, error) }
            return characteristic
        }
        return ensureValidPeripheralStateAndCallIfSucceeded(for: observable) { [weak self] in
            self?.perform(target, "WriteValue", [.bytes(Array(data)), .vardict(options)]) { result in
                results.onNext((target, result.error.map { BlueZErrors.attribute($0, isWrite: true) }))
            }
        }.asSingle()
    }

    /// Each write with response this program makes to `characteristic` (all if `nil`) that succeeds.
    public func observeWrite(for characteristic: Characteristic? = nil) -> Observable<Characteristic> {
        let observable = characteristicWrites.filter {
            characteristic == nil || $0.0 === characteristic?.characteristic
        }
        .map { [weak self] cb, error -> Characteristic in
            guard let self else { throw BluetoothError.destroyed }
            let wrapped = characteristic ?? self.wrap(cb)
            if let error { throw BluetoothError.characteristicWriteFailed(wrapped, error) }
            return wrapped
        }
        return ensureValidPeripheralState(for: observable)
    }

    /// Each new value of `characteristic` (all if `nil`): read results, and notifications while
    /// notifying (BlueZ's `PropertiesChanged` on `Value`, one per notification).
    public func observeValueUpdate(for characteristic: Characteristic? = nil) -> Observable<Characteristic> {
        let notifications = manager.treeUpdates.compactMap { [weak self] tree -> (CBCharacteristic, Error?)? in
            guard let self, case .propertiesChanged(let path, BlueZ.gattCharacteristic, let changed, _)? = tree.change,
                path.isWithin(self.path), let value = changed["Value"]?.data
            else { return nil }
            let cb =
                characteristic?.characteristic.objectPath == path.rawValue
                ? characteristic?.characteristic : self.manager.registeredCharacteristic(at: path)
            guard let cb, cb.isNotifying else { return nil }
            cb.value = value
            return (cb, nil)
        }
        let observable = Observable.merge(characteristicValueEvents, notifications)
            .filter { characteristic == nil || $0.0 === characteristic?.characteristic }
            .map { [weak self] cb, error -> Characteristic in
                guard let self else { throw BluetoothError.destroyed }
                let wrapped = characteristic ?? self.wrap(cb)
                if let error { throw BluetoothError.characteristicReadFailed(wrapped, error) }
                return wrapped
            }
        return ensureValidPeripheralState(for: observable)
    }

    /// Notifications of `characteristic` for as long as subscribed: the first subscriber turns them on
    /// (`StartNotify`), the last one's dispose turns them off (`StopNotify`), however many observe.
    public func observeValueUpdateAndSetNotification(for characteristic: Characteristic) -> Observable<Characteristic> {
        let shared = notificationManager.observable(for: characteristic) { [weak self] in
            guard let self else { return .error(BluetoothError.destroyed) }
            return self.notifications(of: characteristic)
        }
        return ensureValidPeripheralState(for: shared)
    }

    /// Whether `characteristic` notifies: each change of BlueZ's `Notifying`.
    public func observeNotifyValue(for characteristic: Characteristic) -> Observable<Characteristic> {
        let path = characteristic.characteristic.objectPath
        let observable = manager.treeUpdates.compactMap { tree -> Characteristic? in
            guard case .propertiesChanged(let changed, BlueZ.gattCharacteristic, let values, _)? = tree.change,
                changed.rawValue == path, let notifying = values["Notifying"]?.bool
            else { return nil }
            characteristic.characteristic.isNotifying = notifying
            return characteristic
        }
        return ensureValidPeripheralState(for: observable)
    }

    /// Reads a descriptor.
    public func readValue(for descriptor: Descriptor) -> Single<Descriptor> {
        let target = descriptor.descriptor
        let observable = descriptorValueEvents.filter { $0.0 === target }.take(1).map { _, error -> Descriptor in
            if let error { throw BluetoothError.descriptorReadFailed(descriptor, error) }
            return descriptor
        }
        return ensureValidPeripheralStateAndCallIfSucceeded(for: observable) { [weak self] in
            self?.perform(target, "ReadValue", [.vardict([:])], interface: BlueZ.gattDescriptor) { result in
                if case .success(let body) = result, let bytes = body.first?.bytes { target.value = Data(bytes) }
                self?.descriptorValueEvents.onNext((target, result.error.map { BlueZErrors.attribute($0) }))
            }
        }.asSingle()
    }

    /// Writes a descriptor.
    public func writeValue(_ data: Data, for descriptor: Descriptor) -> Single<Descriptor> {
        let target = descriptor.descriptor
        let observable = descriptorWrites.filter { $0.0 === target }.take(1).map { _, error -> Descriptor in
            if let error { throw BluetoothError.descriptorWriteFailed(descriptor, error) }
            return descriptor
        }
        return ensureValidPeripheralStateAndCallIfSucceeded(for: observable) { [weak self] in
            self?.perform(target, "WriteValue", [.bytes(Array(data)), .vardict([:])], interface: BlueZ.gattDescriptor) {
                result in
                self?.descriptorWrites.onNext((target, result.error.map { BlueZErrors.attribute($0, isWrite: true) }))
            }
        }.asSingle()
    }

    /// Each successful write of `descriptor` (all if `nil`).
    public func observeWrite(for descriptor: Descriptor? = nil) -> Observable<Descriptor> {
        descriptorEvents(descriptorWrites, descriptor, failure: BluetoothError.descriptorWriteFailed)
    }

    /// Each read value of `descriptor` (all if `nil`).
    public func observeValueUpdate(for descriptor: Descriptor? = nil) -> Observable<Descriptor> {
        descriptorEvents(descriptorValueEvents, descriptor, failure: BluetoothError.descriptorReadFailed)
    }

    private func descriptorEvents(
        _ events: PublishSubject<(CBDescriptor, Error?)>, _ descriptor: Descriptor?,
        failure: @escaping (Descriptor, Error?) -> BluetoothError
    ) -> Observable<Descriptor> {
        let observable = events.filter { descriptor == nil || $0.0 === descriptor?.descriptor }
            .map { [weak self] cb, error -> Descriptor in
                guard let self else { throw BluetoothError.destroyed }
                let wrapped = try descriptor ?? self.wrap(cb)
                if let error { throw failure(wrapped, error) }
                return wrapped
            }
        return ensureValidPeripheralState(for: observable)
    }

    /// `StartNotify`, then the characteristic's notifications; `StopNotify` when disposed.
    private func notifications(of characteristic: Characteristic) -> Observable<Characteristic> {
        let target = characteristic.characteristic
        return Observable.create { [weak self] observer in
            guard let self else {
                observer.onError(BluetoothError.destroyed)
                return Disposables.create()
            }
            let values = self.observeValueUpdate(for: characteristic).subscribe(observer)
            let refused = RefusedNotify()
            let start = self.bus.call(
                destination: BlueZ.service, path: characteristic.path, interface: BlueZ.gattCharacteristic,
                member: "StartNotify"
            ).observe(on: self.manager.scheduler).subscribe(
                onSuccess: { _ in target.isNotifying = true },
                onFailure: { error in
                    refused.value = true
                    observer.onError(
                        BluetoothError.characteristicSetNotifyValueFailed(characteristic, BlueZErrors.attribute(error)))
                })
            return Disposables.create { [weak self] in
                values.dispose()
                start.dispose()
                // A StopNotify after a StartNotify still in flight reaches BlueZ after it, in order.
                guard let self, !refused.value, self.isConnected, self.manager.state == .poweredOn else { return }
                self.bus.call(
                    destination: BlueZ.service, path: characteristic.path, interface: BlueZ.gattCharacteristic,
                    member: "StopNotify"
                ).forgettingReply()
            }
        }
    }

    var bus: any DBusEndpoint { manager.bus }

    /// Calls a GATT method on an attribute's object and hands the result over on the delivery scheduler.
    private func perform(
        _ attribute: CBAttribute, _ member: String, _ arguments: [DBusValue],
        interface: String = BlueZ.gattCharacteristic,
        completion: @escaping (Result<[DBusValue], Error>) -> Void
    ) {
        guard let path = DBusObjectPath(rawValue: attribute.objectPath) else { return }
        _ = bus.call(destination: BlueZ.service, path: path, interface: interface, member: member, arguments: arguments)
            .observe(on: manager.scheduler)
            .subscribe { completion($0) }
    }

    private func wrap(_ characteristic: CBCharacteristic) -> Characteristic {
        let service =
            characteristic.service.map { Service(service: $0, peripheral: self) }
            ?? Service(
                service: CBService(
                    uuid: CBUUID(string: "0000"), objectPath: "", isPrimary: true, peripheral: peripheral),
                peripheral: self)
        return Characteristic(characteristic: characteristic, service: service)
    }

    private func wrap(_ descriptor: CBDescriptor) throws -> Descriptor {
        guard let characteristic = descriptor.characteristic else { throw BluetoothError.destroyed }
        return Descriptor(descriptor: descriptor, characteristic: wrap(characteristic))
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension CentralManager {
    func registeredCharacteristic(at path: DBusObjectPath) -> CBCharacteristic? {
        registeredObjects { $0.characteristics[path] }
    }
}

/// Whether BlueZ refused a StartNotify (so there is nothing to stop); set on the delivery scheduler.
private final class RefusedNotify: @unchecked Sendable {
    var value = false
}
