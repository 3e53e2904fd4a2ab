@_spi(BlueZ) import CoreBluetooth
import RxDBus
import RxSwift
import Synchronization

/// The manager's one advertisement: an `org.bluez.LEAdvertisement1` object exported and registered with
/// the adapter's `LEAdvertisingManager1` while a subscription to `startAdvertising` lives.
final class Advertiser: Sendable {
    let bus: any DBusEndpoint
    let adapterPath: DBusObjectPath
    let path: DBusObjectPath
    let manager: CBPeripheralManager
    /// The running advertisement's observer, while one runs.
    private let current = Mutex<AdvertisingObserver?>(nil)

    init(bus: any DBusEndpoint, adapterPath: DBusObjectPath, path: DBusObjectPath, manager: CBPeripheralManager) {
        self.bus = bus
        self.adapterPath = adapterPath
        self.path = path
        self.manager = manager
    }

    /// Where one advertisement stands with BlueZ.
    private enum Phase {
        case registering, registered, failed, released
    }

    /// Exports the advertisement and registers it; emits `.started` when BlueZ has it. Disposing
    /// unregisters and unexports it.
    func start(_ properties: [String: DBusValue], _ observer: AnyObserver<StartAdvertisingResult>) -> Disposable {
        let acquired = current.withLock { current in
            guard current == nil else { return false }
            current = AdvertisingObserver(observer: observer)
            return true
        }
        guard acquired else {
            observer.onError(BluetoothError.advertisingInProgress)
            return Disposables.create()
        }
        let phase = Mutex(Phase.registering)
        let release = DBusMethod.immediate { [manager] _ in
            // BlueZ dropped the advertisement itself (the adapter went away or off).
            phase.withLock { $0 = .released }
            manager.isAdvertising = false
            observer.onError(
                BluetoothError.advertisingStartFailed(
                    DBusError(name: BlueZ.failed, message: "BlueZ released the advertisement")))
            return []
        }
        let object = DBusExportedObject(
            path: path,
            interfaces: [
                DBusInterface(name: BlueZ.advertisement, properties: properties, methods: ["Release": release])
            ]
        )
        let export: Disposable
        do {
            export = try bus.export(object)
        } catch {
            current.withLock { $0 = nil }
            observer.onError(BluetoothError.advertisingStartFailed(error))
            return Disposables.create()
        }
        let registration = bus.call(
            destination: BlueZ.service, path: adapterPath, interface: BlueZ.advertisingManager,
            member: "RegisterAdvertisement", arguments: [.objectPath(path), .vardict([:])]
        )
        .subscribe(
            onSuccess: { [manager] _ in
                phase.withLock { $0 = .registered }
                manager.isAdvertising = true
                observer.onNext(.started)
            },
            onFailure: { error in
                phase.withLock { $0 = .failed }
                observer.onError(BluetoothError.advertisingStartFailed(BlueZErrors.general(error)))
            })
        return Disposables.create { [self] in
            registration.dispose()
            // A registration still on its way may yet succeed: unregister it too.
            let stillWithBlueZ = phase.withLock { [.registering, .registered].contains($0) }
            if stillWithBlueZ {
                bus.call(
                    destination: BlueZ.service, path: adapterPath, interface: BlueZ.advertisingManager,
                    member: "UnregisterAdvertisement", arguments: [.objectPath(path)]
                ).forgettingReply()
            }
            export.dispose()
            manager.isAdvertising = false
            current.withLock { $0 = nil }
        }
    }

    /// Ends the running advertisement with `destroyed`: the manager is going.
    func close() {
        current.withLock { $0 }?.observer.onError(BluetoothError.destroyed)
    }
}

/// The observer of a running advertisement, kept to end it when the manager goes.
struct AdvertisingObserver: @unchecked Sendable {
    let observer: AnyObserver<StartAdvertisingResult>
}
