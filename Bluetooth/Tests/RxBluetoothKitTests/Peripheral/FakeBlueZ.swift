import RxDBus
import RxSwift
import RxTest
import Synchronization

/// The least of BlueZ a peripheral manager needs, on a LocalBus connection: adapter `hci0` with
/// `Adapter1`, `GattManager1` and `LEAdvertisingManager1`. It records every call to those with its
/// virtual time, reads a registered application (`GetManagedObjects`) and advertisement
/// (`Properties.GetAll`) as BlueZ does, and plays a central: calls the application's `ReadValue`,
/// `WriteValue`, `StartNotify` and `StopNotify`, and records the `PropertiesChanged` it emits.
final class FakeBlueZ: Sendable {
    static let adapterPath: DBusObjectPath = "/org/bluez/hci0"
    static let adapterAddress = "00:AA:BB:CC:DD:EE"
    static let device: DBusObjectPath = "/org/bluez/hci0/dev_11_22_33_44_55_66"

    let scheduler: TestScheduler
    let connection: LocalBusConnection
    private let state = Locked(State())
    private let adapter: DBusExportedObject
    private let running: Disposable

    struct State {
        var calls: [Recorded<Event<String>>] = []
        /// Registered applications: owner → root.
        var applications: [String: DBusObjectPath] = [:]
        /// What `GetManagedObjects` answered at the last registration.
        var applicationTree: [DBusObjectPath: [String: [String: DBusValue]]] = [:]
        /// Registered advertisements: path → properties.
        var advertisements: [DBusObjectPath: [String: DBusValue]] = [:]
        var refuseApplications = false
        var refuseAdvertisements = false
        /// How long `RegisterApplication` takes to answer once it has read the application (ms).
        var applicationDelay = 0
        var valueChanges: [Recorded<Event<[DBusValue]>>] = []
    }

    init(bus: LocalBus, scheduler: TestScheduler) {
        self.scheduler = scheduler
        connection = bus.connect()
        let state = self.state
        let connection = self.connection
        let now: @Sendable () -> Int = { [scheduler] in scheduler.clock }
        let record: @Sendable (String) -> Void = { call in state.withLock { $0.calls.append(.next(now(), call)) } }
        let failed: @Sendable (String) -> DBusError = { message in
            DBusError(name: "org.bluez.Error.Failed", message: message)
        }
        let gattManager = DBusInterface(
            name: "org.bluez.GattManager1",
            methods: [
                "RegisterApplication": DBusMethod(in: "oa{sv}") { invocation in
                    let root = invocation.arguments.first?.objectPath ?? .root
                    record("RegisterApplication \(root)")
                    if state.withLock({ $0.refuseApplications }) { return .error(failed("refused")) }
                    if state.withLock({ $0.applications[invocation.sender] != nil }) {
                        return .error(DBusError(name: "org.bluez.Error.AlreadyExists", message: "Already Exists"))
                    }
                    let sender = invocation.sender
                    let delay = state.withLock { $0.applicationDelay }
                    let read = connection.call(
                        destination: sender, path: root, interface: DBusStandard.objectManager,
                        member: "GetManagedObjects"
                    ).map { body -> [DBusValue] in
                        let tree = Self.decode(body.first)
                        guard !tree.isEmpty else { throw failed("No object received") }
                        state.withLock { state in
                            state.applications[sender] = root
                            state.applicationTree = tree
                        }
                        return []
                    }
                    return delay == 0 ? read : read.delay(.milliseconds(delay), scheduler: scheduler)
                },
                "UnregisterApplication": .immediate(in: "o") { invocation in
                    let root = invocation.arguments.first?.objectPath ?? .root
                    record("UnregisterApplication \(root)")
                    let known = state.withLock { $0.applications.removeValue(forKey: invocation.sender) != nil }
                    guard known else {
                        throw DBusError(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist")
                    }
                    return []
                },
            ])
        let advertisingManager = DBusInterface(
            name: "org.bluez.LEAdvertisingManager1",
            methods: [
                "RegisterAdvertisement": DBusMethod(in: "oa{sv}") { invocation in
                    let path = invocation.arguments.first?.objectPath ?? .root
                    record("RegisterAdvertisement \(path)")
                    if state.withLock({ $0.refuseAdvertisements }) { return .error(failed("Failed to register")) }
                    return connection.call(
                        destination: invocation.sender, path: path, interface: DBusStandard.properties,
                        member: "GetAll", arguments: [.string("org.bluez.LEAdvertisement1")]
                    ).map { body in
                        state.withLock { $0.advertisements[path] = body.first?.stringKeyed ?? [:] }
                        return []
                    }
                },
                "UnregisterAdvertisement": .immediate(in: "o") { invocation in
                    let path = invocation.arguments.first?.objectPath ?? .root
                    record("UnregisterAdvertisement \(path)")
                    guard state.withLock({ $0.advertisements.removeValue(forKey: path) != nil }) else {
                        throw DBusError(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist")
                    }
                    return []
                },
            ])
        adapter = DBusExportedObject(
            path: Self.adapterPath,
            interfaces: [
                DBusInterface(
                    name: "org.bluez.Adapter1",
                    properties: [
                        "Address": .string(Self.adapterAddress), "Powered": .bool(true), "PowerState": .string("on"),
                    ]),
                gattManager, advertisingManager,
            ])
        let changes = connection.signals(
            matching: DBusMatchRule(interface: DBusStandard.properties, member: "PropertiesChanged")
        ).subscribe(onNext: { signal in
            guard signal.path?.rawValue.hasPrefix("/rxbluetoothkit") == true else { return }
            state.withLock { $0.valueChanges.append(.next(now(), signal.body)) }
        })
        running = Disposables.create(
            [
                try! connection.export(adapter), connection.exportObjectManager(at: .root),
                connection.requestName("org.bluez").subscribe(), changes,
            ])
    }

    deinit { running.dispose() }

    var calls: [Recorded<Event<String>>] { state.withLock { $0.calls } }
    var applications: [String: DBusObjectPath] { state.withLock { $0.applications } }
    var applicationTree: [DBusObjectPath: [String: [String: DBusValue]]] { state.withLock { $0.applicationTree } }
    var advertisements: [DBusObjectPath: [String: DBusValue]] { state.withLock { $0.advertisements } }
    /// Each `PropertiesChanged` of the application's objects: interface, changed, invalidated.
    var propertyChanges: [Recorded<Event<[DBusValue]>>] { state.withLock { $0.valueChanges } }

    func refuse(applications: Bool = false, advertisements: Bool = false) {
        state.withLock {
            $0.refuseApplications = applications
            $0.refuseAdvertisements = advertisements
        }
    }

    func delayApplications(by milliseconds: Int) { state.withLock { $0.applicationDelay = milliseconds } }

    func setPowered(_ powered: Bool) {
        adapter.update(
            "org.bluez.Adapter1", ["Powered": .bool(powered), "PowerState": .string(powered ? "on" : "off")])
    }

    // MARK: A central's requests

    /// The only registered application's owner.
    private var owner: String { state.withLock { $0.applications.keys.first ?? "" } }

    func read(_ path: DBusObjectPath, offset: UInt16 = 0, on owner: String? = nil) -> Single<[DBusValue]> {
        characteristicCall(
            owner, path, "ReadValue",
            [.vardict(["offset": .uint16(offset), "device": .objectPath(Self.device), "mtu": .uint16(185)])])
    }

    func write(_ path: DBusObjectPath, _ bytes: [UInt8], withoutResponse: Bool = false) -> Single<[DBusValue]> {
        characteristicCall(
            nil, path, "WriteValue",
            [
                .bytes(bytes),
                .vardict([
                    "offset": .uint16(0), "device": .objectPath(Self.device),
                    "type": .string(withoutResponse ? "command" : "request"),
                ]),
            ])
    }

    func startNotify(_ path: DBusObjectPath) -> Single<[DBusValue]> { characteristicCall(nil, path, "StartNotify", []) }

    func stopNotify(_ path: DBusObjectPath) -> Single<[DBusValue]> { characteristicCall(nil, path, "StopNotify", []) }

    func readDescriptor(_ path: DBusObjectPath) -> Single<[DBusValue]> {
        connection.call(
            destination: owner, path: path, interface: "org.bluez.GattDescriptor1", member: "ReadValue",
            arguments: [.vardict([:])])
    }

    /// BlueZ drops an advertisement of `owner` by itself.
    func releaseAdvertisement(_ path: DBusObjectPath, of owner: String) -> Single<[DBusValue]> {
        connection.call(destination: owner, path: path, interface: "org.bluez.LEAdvertisement1", member: "Release")
    }

    private func characteristicCall(
        _ owner: String?, _ path: DBusObjectPath, _ member: String, _ arguments: [DBusValue]
    )
        -> Single<[DBusValue]>
    {
        connection.call(
            destination: owner ?? self.owner, path: path, interface: "org.bluez.GattCharacteristic1", member: member,
            arguments: arguments)
    }

    private static func decode(_ value: DBusValue?) -> [DBusObjectPath: [String: [String: DBusValue]]] {
        var tree: [DBusObjectPath: [String: [String: DBusValue]]] = [:]
        for entry in value?.dictionaryEntries ?? [] {
            guard let path = entry.key.objectPath else { continue }
            var interfaces: [String: [String: DBusValue]] = [:]
            for interface in entry.value.dictionaryEntries ?? [] {
                guard let name = interface.key.string else { continue }
                interfaces[name] = interface.value.stringKeyed ?? [:]
            }
            tree[path] = interfaces
        }
        return tree
    }
}

/// A value behind a lock that closures can share (a `Mutex` cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}
