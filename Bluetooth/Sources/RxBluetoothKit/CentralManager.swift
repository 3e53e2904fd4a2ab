@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift
import Synchronization

/// The central role: scan for peripherals, connect to them, and watch the radio — RxBluetoothKit's
/// `CentralManager`, on BlueZ's D-Bus API.
///
/// The manager follows BlueZ's whole object tree for as long as it lives (`GetManagedObjects`, then
/// `InterfacesAdded`/`InterfacesRemoved`/`PropertiesChanged`: two match rules on the bus, and a third
/// for BlueZ's coming and going), so ``state`` is always current and every stream below is a
/// filter of that one subscription. Events are delivered on the manager's queue (or scheduler).
public class CentralManager: ManagerType, @unchecked Sendable {
    /// The CoreBluetooth-shaped object behind the manager (its `state` and `isScanning`).
    public let manager: CBCentralManager
    public var centralManager: CBCentralManager { manager }

    let bus: any DBusEndpoint
    let scheduler: any SchedulerType
    let model: BlueZModel
    /// Each tree BlueZ's signals made, on the delivery scheduler, after the model and the CoreBluetooth
    /// objects were brought up to date with it.
    let treeUpdates = PublishSubject<DBusObjectTree>()
    private let stateChanges = PublishSubject<BluetoothState>()
    private let lastState = Mutex(BluetoothState.unknown)
    private let registry = Mutex(ObjectRegistry())
    let scanning = Mutex(false)
    let connector = Mutex<Set<UUID>>([])
    private let treeSubscription = SingleAssignmentDisposable()

    /// A manager on the system bus's BlueZ (the `DBUS_SYSTEM_BUS_ADDRESS` bus if it is set), adapter
    /// `hci0`, delivering on `queue`. If the bus cannot be reached, the state is `unsupported` and every
    /// operation fails with `bluetoothUnsupported`. `options` and state restoration have no BlueZ
    /// counterpart and are ignored.
    public convenience init(
        queue: DispatchQueue = .main, options: [String: AnyObject]? = nil,
        onWillRestoreCentralManagerState: ((CentralManagerRestoredState) -> Void)? = nil
    ) {
        self.init(
            bus: BlueZ.systemBus(), adapter: "hci0",
            scheduler: BlueZ.deliveryScheduler(queue, name: "RxBluetoothKit.CentralManager"))
    }

    /// A manager on `bus`'s BlueZ, for adapter `adapter` (`hci0`), delivering on `scheduler`. Linux only:
    /// the way to use a private bus (a simulated BlueZ), another adapter, or virtual time.
    public init(bus: any DBusEndpoint, adapter: String = "hci0", scheduler: any SchedulerType) {
        self.bus = bus
        self.scheduler = scheduler
        model = BlueZModel(adapterPath: DBusObjectPath.root.appending("org").appending("bluez").appending(adapter))
        manager = CBCentralManager()
        let trees = BlueZModel.trees(on: bus).observe(on: scheduler)
        // The connection closing ends the tree: the radio is then as good as unsupported.
        treeSubscription.setDisposable(
            trees.subscribe(
                onNext: { [weak self] tree in self?.apply(tree) }, onError: { [weak self] _ in self?.apply(nil) }))
    }

    deinit { treeSubscription.dispose() }

    public var state: BluetoothState { BluetoothState(manager.state) }

    public func observeState() -> Observable<BluetoothState> { stateChanges.asObservable() }

    /// Whether a scan started by this manager is running.
    public var isScanInProgress: Bool { scanning.withLock { $0 } }

    /// Peripherals this manager knows (BlueZ has a device object for them) among `identifiers`.
    public func retrievePeripherals(withIdentifiers identifiers: [UUID]) -> [Peripheral] {
        let known = Set(model.devices.map(\.0))
        let adapter = model.adapterAddress
        return identifiers.compactMap { identifier in
            guard let address = PeripheralIdentity.deviceAddress(of: identifier, adapter: adapter) else { return nil }
            let path = model.devicePath(address: address)
            return known.contains(path) ? peripheral(at: path) : nil
        }
    }

    /// Connected peripherals (to this machine, by any program) that offer one of `serviceUUIDs`.
    public func retrieveConnectedPeripherals(withServices serviceUUIDs: [CBUUID]) -> [Peripheral] {
        let wanted = Set(serviceUUIDs)
        return model.devices.filter { _, properties in
            properties["Connected"]?.bool == true && !wanted.isDisjoint(with: properties.uuids)
        }.map { peripheral(at: $0.0) }
    }

    /// Each connection made, by this program or another (BlueZ's `Connected` turning true).
    public func observeConnect(for peripheral: Peripheral? = nil) -> Observable<Peripheral> {
        let observable = connectionChanges(to: true, for: peripheral).map { $0 }
        return ensure(.poweredOn, observable: observable)
    }

    /// Each disconnection, with its reason when the link was lost rather than closed on purpose.
    public func observeDisconnect(for peripheral: Peripheral? = nil) -> Observable<(Peripheral, DisconnectionReason?)> {
        let observable = connectionChanges(to: false, for: peripheral, orRemoval: false).map {
            [weak self] p -> (Peripheral, DisconnectionReason?) in
            (p, self?.disconnectionReason(for: p))
        }
        return ensure(.poweredOn, observable: observable)
    }

    /// CoreBluetooth's ANCS authorization is an iOS matter; there is none on Linux.
    public func observeANCSAuthorized(for peripheral: Peripheral) -> Observable<Bool> {
        .error(BluetoothError.peripheralConnectionFailed(peripheral, CBError(.operationNotSupported)))
    }

    // MARK: The tree

    private func apply(_ tree: DBusObjectTree?) {
        model.update(tree)
        var newState: BluetoothState?
        if model.adapterChanged(by: tree) {
            let state = model.bluetoothState
            manager.state = state.managerState
            let changed = lastState.withLock { last in
                defer { last = state }
                return last != state
            }
            if changed { newState = state }
            if state != .poweredOn { manager.isScanning = false }
        }
        synchronize(tree?.change)
        if let newState { stateChanges.onNext(newState) }
        if let tree { treeUpdates.onNext(tree) }
    }

    /// Brings the CoreBluetooth objects up to date with a change (all of them after a new tree).
    private func synchronize(_ change: DBusObjectChange?) {
        switch change {
        case .propertiesChanged(let path, BlueZ.device, _, _)?:
            registry.withLock { $0.peripherals[path] }.map(refresh)
        case .propertiesChanged(let path, BlueZ.gattCharacteristic, _, _)?:
            registry.withLock { $0.characteristics[path] }.map(refresh)
        case .interfacesRemoved(let path, let interfaces)? where interfaces.contains(BlueZ.device):
            registry.withLock { $0.peripherals[path] }.map(refresh)
        case .some:
            break
        case nil:
            let objects = registry.withLock { $0 }
            objects.peripherals.values.forEach(refresh)
            objects.characteristics.values.forEach(refresh)
        }
    }

    private func refresh(_ peripheral: CBPeripheral) {
        let properties = model.properties(DBusObjectPath(rawValue: peripheral.objectPath) ?? .root, BlueZ.device)
        peripheral.name = properties?["Name"]?.string
        let connected = properties?["Connected"]?.bool == true
        switch (peripheral.state, connected) {
        case (.connecting, false): break
        default: peripheral.state = connected ? .connected : .disconnected
        }
        if !connected { peripheral.services = nil }
    }

    private func refresh(_ characteristic: CBCharacteristic) {
        guard let path = DBusObjectPath(rawValue: characteristic.objectPath),
            let properties = model.properties(path, BlueZ.gattCharacteristic)
        else { return }
        characteristic.isNotifying = properties["Notifying"]?.bool ?? false
        if let value = properties["Value"]?.data { characteristic.value = value }
    }

    // MARK: Objects

    /// The `Peripheral` of a device path: the same object while the program holds it. (The registry
    /// holds it weakly, since a peripheral holds its manager; the `CBPeripheral` inside, and so its
    /// state, lives as long as the manager.)
    func peripheral(at path: DBusObjectPath) -> Peripheral {
        if let known = registry.withLock({ $0.wrappers[path]?.peripheral }) { return known }
        let cb = object(at: path, \.peripherals) {
            let properties = model.properties(path, BlueZ.device) ?? [:]
            let address = properties["Address"]?.string ?? Self.address(fromPath: path)
            let identifier = PeripheralIdentity.identifier(
                adapter: model.adapterAddress, device: address,
                randomAddress: properties["AddressType"]?.string == "random")
            let peripheral = CBPeripheral(identifier: identifier, objectPath: path.rawValue, address: address)
            refresh(peripheral)
            return peripheral
        }
        let created = Peripheral(manager: self, peripheral: cb)
        return registry.withLock { registry in
            if let raced = registry.wrappers[path]?.peripheral { return raced }
            registry.wrappers[path] = WeakPeripheral(peripheral: created)
            return created
        }
    }

    func registeredObjects<T>(_ body: (ObjectRegistry) -> T) -> T { registry.withLock { body($0) } }

    /// The one CoreBluetooth object of a path, made by `make` the first time.
    func object<T: AnyObject & Sendable>(
        at path: DBusObjectPath, _ keyPath: WritableKeyPath<ObjectRegistry, [DBusObjectPath: T]>, make: () -> T
    ) -> T {
        if let known = registry.withLock({ $0[keyPath: keyPath][path] }) { return known }
        let created = make()
        return registry.withLock { registry in
            if let raced = registry[keyPath: keyPath][path] { return raced }
            registry[keyPath: keyPath][path] = created
            return created
        }
    }

    private static func address(fromPath path: DBusObjectPath) -> String {
        String(path.lastElement.dropFirst(4)).replacingOccurrences(of: "_", with: ":")
    }

    /// The device paths whose `Connected` turned `connected`, or (with `orRemoval`) that went away.
    func connectionChanges(to connected: Bool, for peripheral: Peripheral?, orRemoval: Bool = false)
        -> Observable<Peripheral>
    {
        treeUpdates.compactMap { [weak self] tree -> Peripheral? in
            guard let self, let change = tree.change else { return nil }
            let path: DBusObjectPath
            switch change {
            case .propertiesChanged(let p, BlueZ.device, let values, _) where values["Connected"]?.bool == connected:
                path = p
            case .interfacesRemoved(let p, let interfaces) where orRemoval && interfaces.contains(BlueZ.device):
                path = p
            default:
                return nil
            }
            if let peripheral, peripheral.peripheral.objectPath != path.rawValue { return nil }
            return self.peripheral(at: path)
        }
    }

    /// A link that went down without this program asking is CoreBluetooth's `peripheralDisconnected`;
    /// one it closed has no error.
    func disconnectionReason(for peripheral: Peripheral) -> DisconnectionReason? {
        peripheral.isClosingOnPurpose ? nil : CBError(.peripheralDisconnected)
    }
}

/// Why a peripheral disconnected: `nil` when this program disconnected it.
public typealias DisconnectionReason = Error

/// The CoreBluetooth objects made so far, one per BlueZ object.
struct ObjectRegistry {
    var peripherals: [DBusObjectPath: CBPeripheral] = [:]
    var wrappers: [DBusObjectPath: WeakPeripheral] = [:]
    var services: [DBusObjectPath: CBService] = [:]
    var characteristics: [DBusObjectPath: CBCharacteristic] = [:]
    var descriptors: [DBusObjectPath: CBDescriptor] = [:]
}

struct WeakPeripheral {
    weak var peripheral: Peripheral?
}

/// What CoreBluetooth hands back on state restoration. BlueZ has no state restoration, so no
/// manager on Linux ever calls the handler that receives one.
public struct CentralManagerRestoredState: @unchecked Sendable {
    public let restoredStateData: [String: Any]
    public var peripherals: [Peripheral] { [] }
    public var scanOptions: [String: AnyObject]? { nil }
    public var services: [Service] { [] }
}
