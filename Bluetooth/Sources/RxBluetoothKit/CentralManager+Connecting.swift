@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift
import Synchronization

extension CentralManager {
    /// Connects to `peripheral` and keeps the connection for as long as the subscription lives: emits
    /// the peripheral once connected, fails with `peripheralConnectionFailed` if the connection cannot
    /// be made and with `peripheralDisconnected` if it is lost, and disconnects on dispose. A second
    /// subscription for the same peripheral while one lives fails with
    /// `peripheralIsAlreadyObservingConnection`.
    ///
    /// On BlueZ: `Device1.Connect` (BlueZ resolves the GATT services after it), `Device1.Disconnect`
    /// on dispose. BlueZ keeps a link other programs use; CoreBluetooth does the same.
    /// `options` (CoreBluetooth's connection alerts) have no BlueZ counterpart and are ignored.
    public func establishConnection(_ peripheral: Peripheral, options: [String: Any]? = nil) -> Observable<Peripheral> {
        let observable = Observable<Peripheral>.create { [weak self] observer in
            guard let self else {
                observer.onError(BluetoothError.destroyed)
                return Disposables.create()
            }
            let inserted = self.connector.withLock { $0.insert(peripheral.identifier).inserted }
            guard inserted else {
                observer.onError(BluetoothError.peripheralIsAlreadyObservingConnection(peripheral))
                return Disposables.create()
            }
            let path = peripheral.path
            let connection = ConnectionProgress()
            peripheral.isClosingOnPurpose = false
            if !peripheral.isConnected { peripheral.peripheral.state = .connecting }
            let losses = self.treeUpdates.filter { tree in
                switch tree.change {
                case .propertiesChanged(path, BlueZ.device, let changed, _)?: changed["Connected"]?.bool == false
                case .interfacesRemoved(path, let interfaces)?: interfaces.contains(BlueZ.device)
                default: false
                }
            }.subscribe(onNext: { [weak self] _ in
                guard connection.isConnected else { return }
                observer.onError(
                    BluetoothError.peripheralDisconnected(peripheral, self?.disconnectionReason(for: peripheral)))
            })
            let connect = self.bus.call(
                destination: BlueZ.service, path: path, interface: BlueZ.device, member: "Connect",
                timeout: BlueZ.connectTimeout
            )
            .observe(on: self.scheduler)
            .subscribe(
                onSuccess: { _ in
                    connection.isConnected = true
                    peripheral.peripheral.state = .connected
                    observer.onNext(peripheral)
                },
                onFailure: { [weak self] error in
                    if peripheral.peripheral.state == .connecting { peripheral.peripheral.state = .disconnected }
                    observer.onError(
                        BluetoothError.peripheralConnectionFailed(peripheral, BlueZErrors.general(error)))
                    _ = self
                })
            return Disposables.create { [weak self] in
                losses.dispose()
                connect.dispose()
                guard let self else { return }
                self.connector.withLock { _ = $0.remove(peripheral.identifier) }
                let state = peripheral.peripheral.state
                guard self.state == .poweredOn, state == .connected || state == .connecting else { return }
                peripheral.isClosingOnPurpose = true
                // A link that was never up is simply not there; one that is goes down when BlueZ says so.
                peripheral.peripheral.state = state == .connected ? .disconnecting : .disconnected
                self.bus.call(destination: BlueZ.service, path: path, interface: BlueZ.device, member: "Disconnect")
                    .forgettingReply()
            }
        }
        return ensure(.poweredOn, observable: observable)
    }

    /// Fails with `peripheralDisconnected` when `peripheral` is not connected, or as soon as it
    /// disconnects; never emits.
    func ensurePeripheralIsConnected<T>(_ peripheral: Peripheral) -> Observable<T> {
        .deferred { [weak self] in
            guard let self else { throw BluetoothError.destroyed }
            guard peripheral.isConnected else { throw BluetoothError.peripheralDisconnected(peripheral, nil) }
            // A device BlueZ removes is gone too, whether or not BlueZ said it disconnected first.
            let ends = self.connectionChanges(to: false, for: peripheral, orRemoval: true)
            return self.ensure(.poweredOn, observable: ends).map { [weak self] peripheral -> T in
                throw BluetoothError.peripheralDisconnected(peripheral, self?.disconnectionReason(for: peripheral))
            }
        }
    }
}

/// Whether a connection attempt has succeeded; read and written on the delivery scheduler.
private final class ConnectionProgress: @unchecked Sendable {
    var isConnected = false
}
