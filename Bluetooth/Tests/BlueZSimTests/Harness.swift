import BlueZSim
import RxDBus
import RxSwift
import RxTest
import XCTest

/// The simulation on an in-process bus in virtual time: one tick is a millisecond, work scheduled
/// "now" runs now (no processing delay), so events happen at the times the configuration gives.
/// `client` is a second connection acting as a BlueZ client; every signal from `org.bluez` it can see
/// is recorded with the virtual time it arrived at.
final class Harness {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    let bus: LocalBus
    let server: LocalBusConnection
    let client: LocalBusConnection
    let simulation: BlueZSimulation
    private(set) var signals: [Signal] = []
    private var subscriptions: [Disposable] = []
    private var running: Disposable?

    struct Signal {
        let time: Int
        let message: DBusMessage
        var path: DBusObjectPath? { message.path }
        var member: String? { message.member }
    }

    /// A call's answer and when it came.
    final class Call {
        var time: Int?
        var result: Result<[DBusValue], DBusError>?

        var error: DBusError? {
            if case .failure(let error)? = result { return error }
            return nil
        }

        var value: [DBusValue]? { try? result?.get() }
    }

    init(configuration: BlueZSimulation.Configuration = .standard) {
        bus = LocalBus(scheduler: scheduler)
        server = bus.connect()
        client = bus.connect()
        simulation = BlueZSimulation(configuration: configuration, scheduler: scheduler)
        record(on: client)
        running = simulation.run(on: server)
        scheduler.advanceTo(0)
    }

    deinit {
        running?.dispose()
        for subscription in subscriptions { subscription.dispose() }
    }

    func stop() {
        running?.dispose()
        running = nil
        scheduler.advanceTo(scheduler.clock)
    }

    private func record(on connection: LocalBusConnection) {
        let scheduler = scheduler
        subscriptions.append(
            connection.signals(matching: DBusMatchRule(sender: BlueZ.busName)).subscribe(onNext: { [weak self] in
                self?.signals.append(Signal(time: scheduler.clock, message: $0))
            }))
    }

    var now: Int { scheduler.clock }

    func advance(to time: Int) { scheduler.advanceTo(time) }

    func advance(by ticks: Int) { scheduler.advanceTo(scheduler.clock + ticks) }

    /// Runs `action` at virtual time `time` (for faults at a given moment).
    func at(_ time: Int, _ action: @escaping () -> Void) { scheduler.scheduleAt(time, action: action) }

    /// Calls a method of BlueZ at virtual time `time` (now by default), from `connection` (the client
    /// by default); the answer lands in the returned record as the scheduler advances.
    @discardableResult
    func call(
        at time: Int? = nil, _ path: DBusObjectPath, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = [], from connection: LocalBusConnection? = nil,
        destination: String = BlueZ.busName
    ) -> Call {
        let record = Call()
        let endpoint = connection ?? client
        let scheduler = scheduler
        scheduler.scheduleAt(time ?? scheduler.clock) {
            _ = endpoint.call(
                destination: destination, path: path, interface: interface, member: member, arguments: arguments
            ).subscribe { result in
                record.time = scheduler.clock
                record.result = result.mapError { $0 as? DBusError ?? DBusError(name: "unexpected", message: "\($0)") }
            }
        }
        return record
    }

    /// Calls now and lets the scheduler run what is due now; the call's answer if it came at once.
    @discardableResult
    func callNow(
        _ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        from connection: LocalBusConnection? = nil
    ) -> Call {
        let record = call(path, interface, member, arguments, from: connection)
        advance(by: 0)
        return record
    }

    /// A property as Properties.Get answers it now.
    func property(_ path: DBusObjectPath, _ interface: String, _ name: String) -> DBusValue? {
        callNow(path, DBusStandard.properties, "Get", [.string(interface), .string(name)]).value?.first?.unwrapped
    }

    /// Properties.GetAll now, values unwrapped.
    func properties(_ path: DBusObjectPath, _ interface: String) -> [String: DBusValue]? {
        callNow(path, DBusStandard.properties, "GetAll", [.string(interface)]).value?.first?.stringKeyed?
            .mapValues(\.unwrapped)
    }

    func setProperty(_ path: DBusObjectPath, _ interface: String, _ name: String, _ value: DBusValue) -> Call {
        callNow(path, DBusStandard.properties, "Set", [.string(interface), .string(name), .variant(value)])
    }

    /// GetManagedObjects of the object manager at `/`, now.
    func managedObjects() -> [DBusObjectPath: [String: [String: DBusValue]]] {
        let reply = callNow(BlueZ.rootPath, DBusStandard.objectManager, "GetManagedObjects")
        var objects: [DBusObjectPath: [String: [String: DBusValue]]] = [:]
        for entry in reply.value?.first?.dictionaryEntries ?? [] {
            guard let path = entry.key.objectPath else { continue }
            objects[path] = Self.interfaces(entry.value)
        }
        return objects
    }

    static func interfaces(_ value: DBusValue) -> [String: [String: DBusValue]] {
        var interfaces: [String: [String: DBusValue]] = [:]
        for entry in value.dictionaryEntries ?? [] {
            guard let name = entry.key.string else { continue }
            interfaces[name] = entry.value.stringKeyed?.mapValues(\.unwrapped) ?? [:]
        }
        return interfaces
    }

    // MARK: Recorded signals

    struct PropertiesChange {
        let time: Int
        let changed: [String: DBusValue]
        let invalidated: [String]
    }

    /// PropertiesChanged of `interface` on `path`, in order.
    func changes(_ path: DBusObjectPath, _ interface: String, since: Int = 0) -> [PropertiesChange] {
        signals.filter {
            $0.time >= since && $0.path == path && $0.member == "PropertiesChanged"
                && $0.message.body.first?.string == interface
        }.map { signal in
            PropertiesChange(
                time: signal.time, changed: signal.message.body[1].stringKeyed?.mapValues(\.unwrapped) ?? [:],
                invalidated: signal.message.body[2].strings ?? [])
        }
    }

    /// The times and values of one property's changes.
    func values(of name: String, _ path: DBusObjectPath, _ interface: String, since: Int = 0) -> [(Int, DBusValue)] {
        changes(path, interface, since: since).compactMap { change in change.changed[name].map { (change.time, $0) } }
    }

    struct InterfacesAdded {
        let time: Int
        let path: DBusObjectPath
        let interfaces: [String: [String: DBusValue]]
    }

    func interfacesAdded(since: Int = 0) -> [InterfacesAdded] {
        signals.filter { $0.time >= since && $0.member == "InterfacesAdded" }.compactMap { signal in
            guard let path = signal.message.body.first?.objectPath else { return nil }
            return InterfacesAdded(time: signal.time, path: path, interfaces: Self.interfaces(signal.message.body[1]))
        }
    }

    func interfacesRemoved(since: Int = 0) -> [(time: Int, path: DBusObjectPath, interfaces: [String])] {
        signals.filter { $0.time >= since && $0.member == "InterfacesRemoved" }.compactMap { signal in
            guard let path = signal.message.body.first?.objectPath else { return nil }
            return (signal.time, path, signal.message.body[1].strings ?? [])
        }
    }

    /// The members of the signals recorded since `time`, with their paths' last elements, in order: a
    /// compact picture of a sequence (`PropertiesChanged dev_…`, `InterfacesAdded service0001` …).
    func sequence(since time: Int) -> [String] {
        signals.filter { $0.time >= time }.map { signal in
            var text = (signal.member ?? "?")
            switch signal.member {
            case "InterfacesAdded", "InterfacesRemoved":
                text += " " + (signal.message.body.first?.objectPath?.lastElement ?? "?")
            case "PropertiesChanged":
                let names =
                    (signal.message.body[1].stringKeyed?.keys.sorted() ?? []) + (signal.message.body[2].strings ?? [])
                text += " " + (signal.path?.lastElement ?? "?") + " " + names.joined(separator: ",")
            default:
                text += " " + (signal.path?.lastElement ?? "?")
            }
            return text
        }
    }

    // MARK: Shortcuts

    @discardableResult
    func startDiscovery(at time: Int? = nil, from connection: LocalBusConnection? = nil) -> Call {
        call(at: time, BlueZ.adapterPath, BlueZ.adapterInterface, "StartDiscovery", from: connection)
    }

    @discardableResult
    func stopDiscovery(at time: Int? = nil, from connection: LocalBusConnection? = nil) -> Call {
        call(at: time, BlueZ.adapterPath, BlueZ.adapterInterface, "StopDiscovery", from: connection)
    }

    @discardableResult
    func deviceCall(at time: Int? = nil, _ address: String, _ member: String, _ arguments: [DBusValue] = []) -> Call {
        call(at: time, BlueZ.devicePath(address), BlueZ.deviceInterface, member, arguments)
    }

    /// Discovers from `time` until every device has appeared, then connects `address` and waits until
    /// its services are resolved. Returns when they are.
    func discoverAndConnect(_ address: String, at time: Int = 1000) {
        startDiscovery(at: time)
        advance(to: time + 100)
        let connect = deviceCall(at: time + 100, address, "Connect")
        advance(to: time + 600)
        XCTAssertNotNil(connect.value, "Connect failed: \(String(describing: connect.error))")
        XCTAssertEqual(simulation.snapshot.device(address)?.servicesResolved, true)
    }

    func characteristic(_ address: String, _ uuid: String) -> DBusObjectPath {
        simulation.characteristicPath(address: address, uuid: uuid)!
    }
}

/// ReadValue's and WriteValue's option dictionary.
func options(_ entries: [String: DBusValue] = [:]) -> DBusValue { .vardict(entries) }
