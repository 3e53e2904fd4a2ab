import Dispatch
import RxDBus
import RxSwift

/// Everything the simulation knows, behind its one lock, and the queue of what is to be done about
/// it outside the lock (see ``BlueZSimulation/transact(_:)``).
struct SimulationState {
    /// The run in progress, if any.
    var run: RunState?
    var nextRunID = 0
    /// Effects computed under the lock, waiting to run outside it, in order.
    var pending: [Effect] = []
    /// Whether a thread is running the pending effects (it runs those queued meanwhile too).
    var draining = false
}

/// Work to do outside the lock: emitting signals, updating exported objects, replying, scheduling.
typealias Effect = @Sendable () -> Void

/// One run of the simulation on one bus connection.
struct RunState {
    let id: Int
    let endpoint: any DBusEndpoint
    let exports: ExportTable
    /// The run's name, object manager and signal subscriptions.
    let infrastructure = CompositeDisposable()
    let adapterObject: DBusExportedObject
    var adapter: AdapterState
    var discovery = DiscoverySessions()
    /// Applications and advertisements of clients in the peripheral role.
    var peripheral = PeripheralRegistrations()
    /// By address.
    var devices: [String: DeviceState]
    var lastToken = 0

    /// A number never handed out before in this run: timers carry one and do nothing when the state
    /// they were started for has since moved on to another.
    mutating func token() -> Int {
        lastToken += 1
        return lastToken
    }
}

/// The adapter's settable state.
struct AdapterState {
    var powered: Bool
    var alias: String?
    var connectable = true
    var discoverable = false
    var discoverableTimeout: UInt32 = 180
    var pairable = true
    var pairableTimeout: UInt32 = 0
    /// The timer that ends discoverability after DiscoverableTimeout.
    var discoverableToken: Int?
}

/// A simulated peripheral: what BlueZ knows of it, and the peripheral's own state.
struct DeviceState {
    /// The virtual peripheral changes its profile and layout with the registrations.
    var profile: DeviceProfile
    let path: DBusObjectPath
    var layout: GattLayout
    /// For a device played by a client of the simulation (the virtual radio): the client and its objects.
    var remote: RemotePeripheral?
    /// Whether it is around to be seen and connected (``BlueZSimulation/vanish(address:)`` takes it away).
    var inRange = true
    /// Its Device1 object while BlueZ has one (from its first admitted advertisement until removed).
    var object: DBusExportedObject?
    /// BlueZ forgets temporary devices a while after their last advertisement; connecting or pairing
    /// makes a device permanent.
    var temporary = true
    var paired = false
    var trusted = false
    var blocked = false
    var alias: String?
    /// The name it has now (its profile's, or the current one of its name cycle).
    var name: String?
    var nameIndex = 0
    /// The timer of the name cycle, while the object is on the bus.
    var nameToken: Int?
    /// The RSSI BlueZ last reported; `nil` when it has none (not seen in this discovery).
    var rssi: Int16?
    var txPowerShown = false
    /// The data of the last advertisement BlueZ reported.
    var advertised = DeviceProfile.AdvertisedData()
    /// Advertisement reports in the current discovery.
    var reports = 0
    var advertisingToken: Int?
    var removalToken: Int?
    var connection = Connection.disconnected
    /// A Pair waiting for the connection it started.
    var pairing: Reply?
    var failNextConnect = false
    var readDelay: DispatchTimeInterval?
    /// The peripheral's attribute values, by handle; they outlive connections.
    var values: [UInt16: [UInt8]]
    /// The GATT objects and their sessions: from service resolution until the link goes, or for a
    /// bonded device (whose attribute cache bluetoothd keeps) until the device is removed.
    var gatt: GattSession?
    var servicesResolved = false
    /// UUIDs learnt by service discovery, which Device1's UUIDs keeps after the link goes.
    var resolvedUUIDs: [String] = []

    init(profile: DeviceProfile) {
        self.profile = profile
        path = BlueZ.devicePath(profile.address)
        layout = GattLayout(device: path, services: profile.services)
        name = profile.nameCycle?.names.first ?? profile.name
        values = layout.initialValues
    }

    var isConnected: Bool {
        if case .connected = connection { return true }
        return false
    }

    var isConnecting: Bool {
        if case .connecting = connection { return true }
        return false
    }
}

enum Connection {
    case disconnected
    /// Connect calls wait for the link; `token` identifies the attempt.
    case connecting(token: Int, replies: [Reply])
    /// `token` identifies the link (its service resolution and link-loss timers).
    case connected(token: Int)
}

/// A device's GATT objects and what clients do with them.
struct GattSession {
    /// Every exported GATT object, by path.
    var objects: [DBusObjectPath: DBusExportedObject] = [:]
    /// Notification sessions, by characteristic path.
    var notify: [DBusObjectPath: NotifySession] = [:]
    /// Slow reads waiting for the peripheral, by attribute path.
    var reads: [DBusObjectPath: PendingRead] = [:]
    /// Notifications sent on this link, by characteristic path.
    var notificationCounts: [DBusObjectPath: Int] = [:]
}

struct NotifySession {
    /// The clients (unique names) that called StartNotify, in order.
    var clients: [String]
    /// The timer sending notifications; `nil` while the link is down (sessions of a bonded device
    /// wait for the next connection, as bluetoothd registers them again).
    var token: Int?
    /// Notifying as shown: on from the first registration, and (as bluetoothd leaves it) while the
    /// link of a bonded device is down.
    var isNotifying = false
}

struct PendingRead {
    let offset: Int
    let token: Int
    var replies: [Reply]
}

extension RunState {
    /// Takes out the read of `path` on `address`'s link that `token` started, if it is still
    /// outstanding (the link may have gone, or a later read taken its place); returns it with the
    /// device as it is now.
    mutating func takeRead(of path: DBusObjectPath, on address: String, token: Int) -> (PendingRead, DeviceState)? {
        guard var device = devices[address], var gatt = device.gatt, let pending = gatt.reads[path],
            pending.token == token
        else { return nil }
        gatt.reads[path] = nil
        device.gatt = gatt
        devices[address] = device
        return (pending, device)
    }
}
