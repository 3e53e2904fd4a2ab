@_spi(BlueZ) import CoreBluetooth
import RxDBus
import RxSwift
import Synchronization

extension PeripheralManager {
    /// Publishes `service` with its characteristics and descriptors: exports their objects below the
    /// manager's GATT application and registers the application again with BlueZ (which reads the whole
    /// application when it is registered). Succeeds with the service once BlueZ has it; fails with
    /// ``BluetoothError/addingServiceFailed(_:_:)`` if BlueZ refuses (or the service was added already),
    /// and with the state's error unless the radio is on. Disposing before the answer takes the service
    /// out again.
    public func add(_ service: CBMutableService) -> Single<CBService> {
        let single = Single<CBService>.create { [weak self] observer in
            guard let self else {
                observer(.failure(BluetoothError.destroyed))
                return Disposables.create()
            }
            guard !self.application.contains(service) else {
                observer(
                    .failure(
                        BluetoothError.addingServiceFailed(
                            service, DBusError(name: DBusError.invalidArgs, message: "The service is already added"))))
                return Disposables.create()
            }
            let published = PublishedService(service, at: self.application.nextServicePath(), requests: self.requests)
            let finished = Mutex(false)
            let send = UncheckedObserver(observer)
            self.application.add(published) { error in
                finished.withLock { $0 = true }
                if let error {
                    send.observer(.failure(BluetoothError.addingServiceFailed(service, BlueZErrors.general(error))))
                } else {
                    send.observer(.success(service))
                }
            }
            return Disposables.create { [weak self] in
                guard !finished.withLock({ $0 }) else { return }
                self?.remove(service)
            }
        }
        return ensure(.poweredOn, observable: single.asObservable()).asSingle()
    }

    /// Takes `service` out of the GATT application (and registers what is left again).
    public func remove(_ service: CBMutableService) {
        let removed = application.remove { $0 === service }
        requests.forget(removed.flatMap(Self.mutableCharacteristics))
    }

    /// Takes every service out: the application is unregistered and nothing of it stays exported.
    public func removeAllServices() {
        let removed = application.remove { _ in true }
        requests.forget(removed.flatMap(Self.mutableCharacteristics))
    }

    private static func mutableCharacteristics(_ published: PublishedService) -> [CBMutableCharacteristic] {
        (published.service.characteristics ?? []).compactMap { $0 as? CBMutableCharacteristic }
    }
}

/// A `Single`'s observer handed to a completion that runs on another thread; called once.
struct UncheckedObserver<Element>: @unchecked Sendable {
    let observer: (SingleEvent<Element>) -> Void

    init(_ observer: @escaping (SingleEvent<Element>) -> Void) { self.observer = observer }
}
