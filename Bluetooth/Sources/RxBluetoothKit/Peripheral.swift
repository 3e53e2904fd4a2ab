@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift
import Synchronization

/// A remote device, as RxBluetoothKit's `Peripheral`: its connection, its GATT services, and reads,
/// writes and notifications as observables. One object per BlueZ device for the manager's lifetime.
public class Peripheral: @unchecked Sendable {
    public let manager: CentralManager
    public let peripheral: CBPeripheral
    let path: DBusObjectPath
    private let closing = Mutex(false)
    let notificationManager = CharacteristicNotificationManager()
    /// Read results and notifications, as CoreBluetooth's `didUpdateValueFor` delivers them.
    let characteristicValueEvents = PublishSubject<(CBCharacteristic, Error?)>()
    let characteristicWrites = PublishSubject<(CBCharacteristic, Error?)>()
    let descriptorValueEvents = PublishSubject<(CBDescriptor, Error?)>()
    let descriptorWrites = PublishSubject<(CBDescriptor, Error?)>()

    init(manager: CentralManager, peripheral: CBPeripheral) {
        self.manager = manager
        self.peripheral = peripheral
        path = DBusObjectPath(rawValue: peripheral.objectPath) ?? .root
    }

    /// Whether this program closed the connection (so that its end is not a lost link).
    var isClosingOnPurpose: Bool {
        get { closing.withLock { $0 } }
        set { closing.withLock { $0 = newValue } }
    }

    public var isConnected: Bool { peripheral.state == .connected }
    public var state: CBPeripheralState { peripheral.state }
    public var name: String? { peripheral.name }
    /// Stable across runs: made from the adapter's and the device's addresses (see `PeripheralIdentity`).
    public var identifier: UUID { peripheral.identifier }
    public var services: [Service]? { peripheral.services?.map { Service(service: $0, peripheral: self) } }
    /// BlueZ queues writes without response itself; a program may always send one.
    public var canSendWriteWithoutResponse: Bool { peripheral.canSendWriteWithoutResponse }

    /// Human words for the peripheral in error messages: its name, else its address.
    var displayName: String { peripheral.name ?? peripheral.address }

    /// Whether the peripheral is connected: the current value, then each change; never completes.
    public func observeConnection() -> Observable<Bool> {
        let changes = Observable.merge(
            manager.observeConnect(for: self).map { _ in true },
            manager.observeDisconnect(for: self).map { _ in false })
        return changes.startWith(isConnected)
    }

    /// ``CentralManager/establishConnection(_:options:)`` for this peripheral.
    public func establishConnection(options: [String: Any]? = nil) -> Observable<Peripheral> {
        manager.establishConnection(self, options: options)
    }

    /// The name's changes (BlueZ's `Name`), with the peripheral.
    public func observeNameUpdate() -> Observable<(Peripheral, String?)> {
        let observable = manager.treeUpdates.compactMap { [path] tree -> String?? in
            guard case .propertiesChanged(path, BlueZ.device, let changed, let invalidated)? = tree.change else {
                return nil
            }
            if let name = changed["Name"] { return .some(name.string) }
            return invalidated.contains("Name") ? .some(nil) : nil
        }.map { [unowned self] name in (self, name) }
        return ensureValidPeripheralState(for: observable)
    }

    /// Services that went away (BlueZ removed their objects, as after the device changed its database).
    public func observeServicesModification() -> Observable<(Peripheral, [Service])> {
        let observable = manager.treeUpdates.compactMap { [weak self] tree -> (Peripheral, [Service])? in
            guard let self, case .interfacesRemoved(let removed, let interfaces)? = tree.change,
                interfaces.contains(BlueZ.gattService), removed.parent == self.path
            else { return nil }
            let service = self.manager.object(at: removed, \.services) {
                CBService(
                    uuid: CBUUID(string: "0000"), objectPath: removed.rawValue, isPrimary: true,
                    peripheral: self.peripheral)
            }
            self.peripheral.services = self.peripheral.services?.filter { $0 !== service }
            return (self, [Service(service: service, peripheral: self)])
        }
        return ensureValidPeripheralState(for: observable)
    }

    /// The signal strength BlueZ last measured. BlueZ reports it from advertisements (during a scan)
    /// and cannot read it on demand from a connected link, so this fails with `peripheralRSSIReadFailed`
    /// (`CBError.operationNotSupported`) when BlueZ has no current figure.
    public func readRSSI() -> Single<(Peripheral, Int)> {
        let observable = Observable<(Peripheral, Int)>.deferred { [weak self] in
            guard let self else { throw BluetoothError.destroyed }
            guard let rssi = self.manager.model.properties(self.path, BlueZ.device)?["RSSI"]?.integer else {
                throw BluetoothError.peripheralRSSIReadFailed(self, CBError(.operationNotSupported))
            }
            return .just((self, Int(rssi)))
        }
        return ensureValidPeripheralState(for: observable).asSingle()
    }

    /// CoreBluetooth's readiness for more writes without response. BlueZ queues such writes itself and
    /// never says it is full, so this never emits.
    public func observeWriteWithoutResponseReadiness() -> Observable<Void> { .never() }

    /// The longest value one write may carry: 512 bytes with response (ATT's longest attribute, as
    /// CoreBluetooth), the link's MTU less 3 without (BlueZ's `MTU`, 23 until it says otherwise).
    public func maximumWriteValueLength(for type: CBCharacteristicWriteType) -> Int {
        switch type {
        case .withResponse:
            return 512
        default:
            let mtu =
                manager.model.children(of: path, with: BlueZ.gattService).flatMap { service in
                    manager.model.children(of: service.0, with: BlueZ.gattCharacteristic)
                }.compactMap { $0.1["MTU"]?.integer }.max() ?? 23
            return Int(mtu) - 3
        }
    }

    /// L2CAP channels need kernel sockets BlueZ does not offer over D-Bus: this fails with
    /// `openingL2CAPChannelFailed` (`CBError.operationNotSupported`).
    public func openL2CAPChannel(PSM: CBL2CAPPSM) -> Single<CBL2CAPChannel> {
        .error(BluetoothError.openingL2CAPChannelFailed(self, CBError(.operationNotSupported)))
    }

    /// `observable`, failing when the peripheral is not connected or disconnects, and when the radio
    /// is not on or goes off.
    func ensureValidPeripheralState<T>(for observable: Observable<T>) -> Observable<T> {
        .absorb(manager.ensurePeripheralIsConnected(self), manager.ensure(.poweredOn, observable: observable))
    }

    /// `observable` (subscribed first), then `call` — the operation whose result it waits for.
    func ensureValidPeripheralStateAndCallIfSucceeded<T>(
        for observable: Observable<T>, postSubscriptionCall call: @escaping () -> Void
    ) -> Observable<T> {
        let operation = Observable<T>.deferred {
            call()
            return .empty()
        }
        return ensureValidPeripheralState(for: .merge([observable, operation]))
    }
}

extension Peripheral: Equatable {
    public static func == (lhs: Peripheral, rhs: Peripheral) -> Bool { lhs.peripheral === rhs.peripheral }
}

/// An L2CAP channel: none can be opened through BlueZ's D-Bus API.
public final class CBL2CAPChannel: Sendable {
    private init() {}
}
