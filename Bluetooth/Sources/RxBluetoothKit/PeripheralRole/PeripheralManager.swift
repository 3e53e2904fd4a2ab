@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import RxSwift
import Synchronization

/// The peripheral role: advertise, publish GATT services, and answer the centrals' reads, writes and
/// subscriptions — RxBluetoothKit's `PeripheralManager`, on BlueZ's D-Bus API.
///
/// The manager follows BlueZ's object tree as ``CentralManager`` does, for ``state``. An advertisement is an
/// `org.bluez.LEAdvertisement1` object the manager exports and registers with the adapter while
/// ``startAdvertising(_:)``'s subscription lives; the added services are one GATT application, exported
/// below the manager's own root and registered with the adapter's `GattManager1` until removed. When
/// the manager goes, so does everything it exported and registered. See <doc:PeripheralRole>.
public class PeripheralManager: ManagerType, @unchecked Sendable {
    /// The CoreBluetooth-shaped object behind the manager (its `state` and `isAdvertising`).
    public let manager: CBPeripheralManager

    let bus: any DBusEndpoint
    let scheduler: any SchedulerType
    let model: BlueZModel
    let advertiser: Advertiser
    let application: GattApplication
    let requests: GattRequests
    private let stateChanges = PublishSubject<BluetoothState>()
    private let lastState = Mutex(BluetoothState.unknown)
    /// Whether BlueZ's tree came once already.
    private let bluezSeen = Mutex(false)
    private let treeSubscription = SingleAssignmentDisposable()

    /// The default time the manager waits for the program's response to a read or a write.
    public static let defaultResponseTimeout: RxTimeInterval = .seconds(10)

    /// A manager on the system bus's BlueZ (the `DBUS_SYSTEM_BUS_ADDRESS` bus if it is set), adapter
    /// `hci0`, delivering on `queue`. If the bus cannot be reached, the state is `unsupported` and every
    /// operation fails with `bluetoothUnsupported`. `options` have no BlueZ counterpart and are ignored.
    public convenience init(queue: DispatchQueue = .main, options: [String: AnyObject]? = nil) {
        self.init(
            bus: BlueZ.systemBus(), adapter: "hci0",
            scheduler: BlueZ.deliveryScheduler(queue, name: "RxBluetoothKit.PeripheralManager"))
    }

    /// A manager on `bus`'s BlueZ, for adapter `adapter` (`hci0`), delivering on `scheduler`; a read or
    /// a write the program does not respond to within `responseTimeout` is answered with BlueZ's
    /// `org.bluez.Error.Failed` (the central sees ATT error `0x80`). Linux only: the way to use a private
    /// bus (a simulated BlueZ), another adapter, or virtual time.
    public init(
        bus: any DBusEndpoint, adapter: String = "hci0", scheduler: any SchedulerType,
        responseTimeout: RxTimeInterval = PeripheralManager.defaultResponseTimeout
    ) {
        self.bus = bus
        self.scheduler = scheduler
        let adapterPath = DBusObjectPath.root.appending("org").appending("bluez").appending(adapter)
        let model = BlueZModel(adapterPath: adapterPath)
        self.model = model
        let manager = CBPeripheralManager()
        self.manager = manager
        let root = Self.nextRoot()
        advertiser = Advertiser(
            bus: bus, adapterPath: adapterPath, path: root.appending("advertisement"), manager: manager)
        application = GattApplication(bus: bus, adapterPath: adapterPath, root: root.appending("gatt"))
        requests = GattRequests(
            scheduler: scheduler, timeout: responseTimeout, centrals: Centrals { model.adapterAddress },
            application: application)
        treeSubscription.setDisposable(
            BlueZModel.trees(on: bus).observe(on: scheduler).subscribe(
                onNext: { [weak self] tree in self?.apply(tree) }, onError: { [weak self] _ in self?.apply(nil) }))
    }

    deinit {
        treeSubscription.dispose()
        advertiser.close()
        application.close()
        requests.pending.answerAll(with: DBusError(name: BlueZ.failed, message: "The peripheral manager is gone"))
    }

    public var state: BluetoothState { BluetoothState(manager.state) }

    public func observeState() -> Observable<BluetoothState> { stateChanges.asObservable() }

    /// Whether this manager's advertisement is registered with BlueZ.
    public var isAdvertising: Bool { manager.isAdvertising }

    private func apply(_ tree: DBusObjectTree?) {
        model.update(tree)
        // A whole tree after the first is BlueZ come back: what it forgot is registered again. (A running
        // advertisement has ended already: the state went unsupported when BlueZ left.)
        if let tree, tree.change == nil,
            bluezSeen.withLock({ seen in
                defer { seen = true }; return seen
            })
        {
            application.registerAgain()
        }
        guard model.adapterChanged(by: tree) else { return }
        let state = model.bluetoothState
        manager.state = state.managerState
        let changed = lastState.withLock { last in
            defer { last = state }
            return last != state
        }
        if changed { stateChanges.onNext(state) }
    }

    /// Each manager's objects live below a root of their own, `/rxbluetoothkit/peripheral<n>`.
    private static let roots = Atomic(0)

    private static func nextRoot() -> DBusObjectPath {
        let number = roots.add(1, ordering: .relaxed).oldValue
        return DBusObjectPath.root.appending("rxbluetoothkit").appending("peripheral\(number)")
    }
}
