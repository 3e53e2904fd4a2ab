import Synchronization

/// An object a program puts on the bus (``DBusEndpoint/export(_:)``): a path and its interfaces. Its
/// property values are kept here; ``update(_:_:invalidated:)`` stores new ones and emits `PropertiesChanged` on
/// every connection the object is exported on, and adding or removing an interface emits the object
/// manager's `InterfacesAdded` / `InterfacesRemoved`.
public final class DBusExportedObject: Sendable {
    public let path: DBusObjectPath
    private let state: Mutex<State>

    private struct State {
        var interfaces: [String: DBusInterface]
        var exports: [ObjectIdentifier: WeakExport] = [:]
    }

    public init(path: DBusObjectPath, interfaces: [DBusInterface]) {
        self.path = path
        state = Mutex(State(interfaces: Dictionary(interfaces.map { ($0.name, $0) }) { _, last in last }))
    }

    /// The interfaces, by name.
    public var interfaces: [String: DBusInterface] { state.withLock { $0.interfaces } }

    /// The current value of a property.
    public func property(_ name: String, of interface: String) -> DBusValue? {
        state.withLock { $0.interfaces[interface]?.properties[name] }
    }

    /// Stores new property values and emits `PropertiesChanged` for those that changed (nothing if none
    /// did). `invalidated` names properties whose values are gone (removed from the interface).
    public func update(_ interface: String, _ changes: [String: DBusValue], invalidated: [String] = []) {
        let (changed, exports) = state.withLock { state -> ([String: DBusValue], [any ExportSink]) in
            guard var iface = state.interfaces[interface] else { return ([:], []) }
            var changed: [String: DBusValue] = [:]
            for (name, value) in changes where iface.properties[name] != value {
                iface.properties[name] = value
                changed[name] = value
            }
            for name in invalidated { iface.properties[name] = nil }
            state.interfaces[interface] = iface
            return (changed, state.exports.values.compactMap(\.sink))
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        let signal = DBusMessage.signal(
            path: path, interface: DBusStandard.properties, member: "PropertiesChanged",
            body: [.string(interface), .vardict(changed), .strings(invalidated.sorted())])
        for sink in exports { sink.objectEmitted(signal) }
    }

    /// Adds (or replaces) an interface; emits `InterfacesAdded`.
    public func addInterface(_ interface: DBusInterface) {
        let exports = state.withLock { state in
            state.interfaces[interface.name] = interface
            return state.exports.values.compactMap(\.sink)
        }
        for sink in exports { sink.interfacesAdded(path, [interface.name: interface.properties]) }
    }

    /// Removes an interface; emits `InterfacesRemoved`.
    public func removeInterface(named name: String) {
        let exports = state.withLock { state -> [any ExportSink] in
            guard state.interfaces.removeValue(forKey: name) != nil else { return [] }
            return state.exports.values.compactMap(\.sink)
        }
        for sink in exports { sink.interfacesRemoved(path, [name]) }
    }

    /// Emits one of the object's signals.
    public func emitSignal(interface: String, member: String, arguments: [DBusValue] = []) {
        let exports = state.withLock { $0.exports.values.compactMap(\.sink) }
        let signal = DBusMessage.signal(path: path, interface: interface, member: member, body: arguments)
        for sink in exports { sink.objectEmitted(signal) }
    }

    func attach(_ sink: any ExportSink) {
        state.withLock { $0.exports[ObjectIdentifier(sink)] = WeakExport(sink: sink) }
    }

    func detach(_ sink: any ExportSink) {
        _ = state.withLock { $0.exports.removeValue(forKey: ObjectIdentifier(sink)) }
    }
}

/// Where an exported object's signals go: the registry of one connection it is exported on.
protocol ExportSink: AnyObject, Sendable {
    func objectEmitted(_ signal: DBusMessage)
    func interfacesAdded(_ path: DBusObjectPath, _ interfaces: [String: [String: DBusValue]])
    func interfacesRemoved(_ path: DBusObjectPath, _ interfaces: [String])
}

private struct WeakExport {
    weak var sink: (any ExportSink)?
}

/// The standard interfaces' names.
public enum DBusStandard {
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let peer = "org.freedesktop.DBus.Peer"
    /// The bus daemon itself.
    public static let busName = "org.freedesktop.DBus"
    public static let busPath: DBusObjectPath = "/org/freedesktop/DBus"
}
