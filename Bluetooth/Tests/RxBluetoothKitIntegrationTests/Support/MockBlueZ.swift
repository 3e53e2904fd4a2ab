import Foundation
import RxDBus
import RxSwift

/// python-dbusmock's `bluez5` template, driven through its mock API: `org.bluez.Mock` on `/`
/// (`AddAdapter`, `AddDevice`) and `org.freedesktop.DBus.Mock` on every object (`AddObject`,
/// `UpdateProperties`, `EmitSignal`, `GetMethodCalls`, and the `MethodCalled` signal).
///
/// The calls go out on a connection of the test's own, never the central's, so that they do not
/// count among the central's match rules.
///
/// Where Debian's python3-dbusmock 0.28.7 differs from bluetoothd (the tests work around each):
/// - `AddObject` emits no `InterfacesAdded` (``announce(_:_:)`` emits it), though `GetManagedObjects`
///   lists the object; and the template has no GATT objects at all.
/// - `Device1.Connect` and `Disconnect` emit `PropertiesChanged` for `Connected` but do not store it:
///   `Get`, `GetAll` and `GetManagedObjects` go on saying `false`.
/// - `StartDiscovery` fails (a python `KeyError: 'DiscoveryFilter'`) unless `SetDiscoveryFilter` was
///   called first; `SetDiscoveryFilter` stores the filter as an `Adapter1` property `DiscoveryFilter`,
///   and with a filter `StartDiscovery` turns `Discoverable` on.
/// - `AddDevice`'s `ManufacturerData`, `ServiceData`, `AdvertisingFlags` and `AdvertisingData` have
///   an array level too many (`aa{qv}`, `aa{sv}`, `aay`, `aa{yv}`; all empty).
/// - `MethodCalled` is sent as a call starts, before its code runs; `GetCalls` times are whole seconds.
final class MockBlueZ {
    static let service = "org.bluez"
    static let mockInterface = "org.freedesktop.DBus.Mock"
    static let templateInterface = "org.bluez.Mock"

    let control: DBusConnection
    private let process: DBusMockProcess

    /// Starts the template on the bus at `address`; `XCTSkip` if python-dbusmock is not installed.
    init(address: String) throws {
        control = try DBusConnection(address: address)
        process = try DBusMockProcess(
            template: "bluez5", service: Self.service, address: address, watchingWith: control)
    }

    func stop() {
        process.stop()
        control.close()
    }

    /// The mock's log, for failure messages.
    var log: String { process.log }

    @discardableResult
    func call(
        _ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue] = []
    ) throws -> [DBusValue] {
        try value(
            of: control.call(
                destination: Self.service, path: path, interface: interface, member: member, arguments: arguments))
    }

    // MARK: The template's conveniences

    /// `AddAdapter`: an adapter `/org/bluez/<name>`, powered, with the address the template derives
    /// from the name's last digit (`00:01:02:03:04:05` for `hci0`).
    @discardableResult
    func addAdapter(_ name: String = "hci0", systemName: String = "mock-host") throws -> DBusObjectPath {
        let reply = try call(.root, Self.templateInterface, "AddAdapter", [.string(name), .string(systemName)])
        return try Self.path(reply)
    }

    /// `AddDevice`: a device with RSSI -79, not connected, no UUIDs; `InterfacesAdded` is emitted.
    @discardableResult
    func addDevice(adapter: String = "hci0", address: String, alias: String) throws -> DBusObjectPath {
        let reply = try call(
            .root, Self.templateInterface, "AddDevice", [.string(adapter), .string(address), .string(alias)])
        return try Self.path(reply)
    }

    // MARK: The generic mock API

    /// A method of an object added with ``addObject(_:interface:properties:methods:)``: Python code run
    /// with `self` (the mock object), `args` and `dbus`; what it assigns to `ret` is the reply.
    struct Method {
        var name: String
        var inSignature: String
        var outSignature: String
        var code: String
    }

    /// `AddObject`. The mock emits no `InterfacesAdded` for it (``announce(_:_:)`` does), though its
    /// `GetManagedObjects` lists it.
    func addObject(
        _ path: DBusObjectPath, interface: String, properties: [String: DBusValue], methods: [Method]
    ) throws {
        let methodList = DBusValue.array(
            elementSignature: "(ssss)",
            methods.map {
                .structure([.string($0.name), .string($0.inSignature), .string($0.outSignature), .string($0.code)])
            })
        try call(
            .root, Self.mockInterface, "AddObject",
            [.string(path.rawValue), .string(interface), .vardict(properties), methodList])
    }

    /// The object manager's `InterfacesAdded` for `path`, emitted from `/` through `EmitSignal`, as
    /// BlueZ emits it when it exports an object.
    func announce(_ path: DBusObjectPath, _ interfaces: [String: [String: DBusValue]]) throws {
        let byInterface = DBusValue.dictionary(
            interfaces.mapValues(DBusValue.vardict), keySignature: "s", valueSignature: "a{sv}", key: DBusValue.string)
        try call(
            .root, Self.mockInterface, "EmitSignal",
            [
                .string(DBusStandard.objectManager), .string("InterfacesAdded"), .string("oa{sa{sv}}"),
                .array(elementSignature: "v", [.variant(.objectPath(path)), .variant(byInterface)]),
            ])
    }

    /// `UpdateProperties`: stores the values and emits one `PropertiesChanged` with them.
    func updateProperties(_ path: DBusObjectPath, _ interface: String, _ values: [String: DBusValue]) throws {
        try call(path, Self.mockInterface, "UpdateProperties", [.string(interface), .vardict(values)])
    }

    /// The arguments of each call of `member` on the object at `path` so far (`GetMethodCalls`).
    func calls(of member: String, at path: DBusObjectPath) throws -> [[DBusValue]] {
        let reply = try call(path, Self.mockInterface, "GetMethodCalls", [.string(member)])
        guard let entries = reply.first?.array else { throw DBusError.unexpectedReply("GetMethodCalls: \(reply)") }
        return try entries.map { entry in
            guard let fields = entry.structure, fields.count == 2, let arguments = fields[1].array else {
                throw DBusError.unexpectedReply("GetMethodCalls entry: \(entry)")
            }
            return arguments.map(\.unwrapped)
        }
    }

    /// Every mock method called on the object at `path` so far, in order, by name (`GetCalls`).
    func callNames(at path: DBusObjectPath) throws -> [String] {
        let reply = try call(path, Self.mockInterface, "GetCalls")
        guard let entries = reply.first?.array else { throw DBusError.unexpectedReply("GetCalls: \(reply)") }
        return try entries.map { entry in
            guard let fields = entry.structure, fields.count == 3, let name = fields[1].string else {
                throw DBusError.unexpectedReply("GetCalls entry: \(entry)")
            }
            return name
        }
    }

    /// The calls of `member` on the object at `path` from now on (the mock's `MethodCalled` signal,
    /// which it sends as each call starts), with their arguments. The match rule is on the bus when
    /// this returns.
    func recordCalls(
        of member: String, at path: DBusObjectPath, disposedBy bag: DisposeBag
    ) throws -> Recording<[DBusValue]> {
        let calls = control.signals(
            matching: DBusMatchRule(
                sender: Self.service, path: path, interface: Self.mockInterface, member: "MethodCalled", arg0: member)
        ).map { signal in (signal.body.dropFirst().first?.array ?? []).map(\.unwrapped) }
        let recording = Recording(calls, disposedBy: bag)
        try roundTrip(control)
        return recording
    }

    private static func path(_ reply: [DBusValue]) throws -> DBusObjectPath {
        guard let raw = reply.first?.string, let path = DBusObjectPath(rawValue: raw) else {
            throw DBusError.unexpectedReply("expected an object path, got \(reply)")
        }
        return path
    }
}
