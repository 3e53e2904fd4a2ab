import RxSwift
import Synchronization

/// The objects one connection exports, and the answers to calls on them: their own methods, and the
/// standard `Properties`, `Introspectable`, `ObjectManager` and `Peer` interfaces. Shared by the
/// sd-bus connection and the in-process bus, which differ only in how messages travel.
final class ExportRegistry: ExportSink, Sendable {
    private let state = Mutex(State())
    /// Sends a signal on the owning connection.
    private let send: @Sendable (DBusMessage) -> Void

    private struct State {
        var objects: [DBusObjectPath: DBusExportedObject] = [:]
        var managers: [DBusObjectPath: Int] = [:]
    }

    init(send: @escaping @Sendable (DBusMessage) -> Void) { self.send = send }

    func add(_ object: DBusExportedObject) throws -> Disposable {
        let added = state.withLock { state -> Bool in
            guard state.objects[object.path] == nil else { return false }
            state.objects[object.path] = object
            return true
        }
        guard added else {
            throw DBusError(name: DBusError.invalidArgs, message: "an object is already exported at \(object.path)")
        }
        object.attach(self)
        interfacesAdded(object.path, object.interfaces.mapValues(\.properties))
        return Disposables.create { [weak self, object] in self?.remove(object) }
    }

    private func remove(_ object: DBusExportedObject) {
        let removed = state.withLock { state -> Bool in
            guard state.objects[object.path] === object else { return false }
            state.objects[object.path] = nil
            return true
        }
        guard removed else { return }
        object.detach(self)
        interfacesRemoved(object.path, object.interfaces.keys.sorted())
    }

    func addManager(at path: DBusObjectPath) -> Disposable {
        state.withLock { $0.managers[path, default: 0] += 1 }
        return Disposables.create { [weak self] in
            self?.state.withLock { state in
                if let count = state.managers[path], count > 1 {
                    state.managers[path] = count - 1
                } else {
                    state.managers[path] = nil
                }
            }
        }
    }

    /// Every exported object's unsubscribed disposal: the connection is going away.
    func removeAll() {
        let objects = state.withLock { state in
            defer { state.objects = [:] }
            return Array(state.objects.values)
        }
        for object in objects { object.detach(self) }
    }

    // MARK: ExportSink

    func objectEmitted(_ signal: DBusMessage) { send(signal) }

    func interfacesAdded(_ path: DBusObjectPath, _ interfaces: [String: [String: DBusValue]]) {
        guard let manager = managerPath(above: path) else { return }
        let body: [DBusValue] = [
            .objectPath(path),
            .dictionary(interfaces.mapValues { .vardict($0) }, keySignature: "s", valueSignature: "a{sv}") {
                .string($0)
            },
        ]
        send(.signal(path: manager, interface: DBusStandard.objectManager, member: "InterfacesAdded", body: body))
    }

    func interfacesRemoved(_ path: DBusObjectPath, _ interfaces: [String]) {
        guard let manager = managerPath(above: path) else { return }
        send(
            .signal(
                path: manager, interface: DBusStandard.objectManager, member: "InterfacesRemoved",
                body: [.objectPath(path), .strings(interfaces)]))
    }

    /// The nearest object manager strictly above `path`.
    private func managerPath(above path: DBusObjectPath) -> DBusObjectPath? {
        let managers = state.withLock { $0.managers }
        var candidate = path.parent
        while let current = candidate {
            if managers[current] != nil { return current }
            candidate = current.parent
        }
        return nil
    }

    // MARK: Calls

    /// The reply to a method call on this connection's objects.
    func handle(_ call: DBusMessage) -> Single<[DBusValue]> {
        guard let path = call.path, let member = call.member else {
            return .error(DBusError(name: DBusError.invalidArgs, message: "a method call needs a path and a member"))
        }
        let (object, isManager, children) = state.withLock { state in
            (
                state.objects[path], state.managers[path] != nil,
                state.objects.keys.filter { $0.isWithin(path) && $0 != path }
            )
        }
        switch (call.interface, member) {
        case (DBusStandard.introspectable?, "Introspect"):
            guard object != nil || isManager || !children.isEmpty else { break }
            return .just([.string(Introspection.xml(for: object, at: path, children: children))])
        case (DBusStandard.peer?, "Ping"):
            return .just([])
        case (DBusStandard.objectManager?, "GetManagedObjects") where isManager:
            return .just([managedObjects(below: path)])
        default:
            break
        }
        guard let object else {
            return .error(DBusError(name: DBusError.unknownObject, message: "no object at \(path)"))
        }
        if call.interface == DBusStandard.properties {
            return Single.deferred { .just(try Self.properties(call, of: object)) }
        }
        let interfaces = object.interfaces
        let method: DBusMethod?
        if let name = call.interface {
            guard let iface = interfaces[name] else {
                return .error(DBusError(name: DBusError.unknownInterface, message: "\(path) has no interface \(name)"))
            }
            method = iface.methods[member]
        } else {
            method = interfaces.keys.sorted().lazy.compactMap { interfaces[$0]?.methods[member] }.first
        }
        guard let method else {
            return .error(DBusError(name: DBusError.unknownMethod, message: "no method \(member) at \(path)"))
        }
        return method.handler(DBusMethodInvocation(message: call))
    }

    private func managedObjects(below path: DBusObjectPath) -> DBusValue {
        let objects = state.withLock { state in
            state.objects.values.filter { $0.path.isWithin(path) && $0.path != path }
        }
        var entries: [DBusObjectPath: DBusValue] = [:]
        for object in objects {
            entries[object.path] = .dictionary(
                object.interfaces.mapValues { .vardict($0.properties) }, keySignature: "s", valueSignature: "a{sv}"
            ) { .string($0) }
        }
        return .dictionary(entries, keySignature: "o", valueSignature: "a{sa{sv}}") { .objectPath($0) }
    }

    private static func properties(_ call: DBusMessage, of object: DBusExportedObject) throws -> [DBusValue] {
        let invocation = DBusMethodInvocation(message: call)
        guard let interfaceName = try invocation.argument(0, "interface name").string else {
            throw DBusError(name: DBusError.invalidArgs, message: "the interface name is not a string")
        }
        let interface = object.interfaces[interfaceName]
        switch call.member {
        case "GetAll":
            // The specification lets an unknown interface answer with no properties; BlueZ (through
            // GDBus) answers InvalidArgs, as here.
            guard let interface else { throw unknownInterface(interfaceName, object) }
            return [.vardict(interface.properties)]
        case "Get":
            guard let interface else { throw unknownInterface(interfaceName, object) }
            let name = try invocation.argument(1, "property name").string ?? ""
            guard let value = interface.properties[name] else {
                throw DBusError(name: DBusError.invalidArgs, message: "no property \(name) on \(interfaceName)")
            }
            return [.variant(value)]
        case "Set":
            guard let interface else { throw unknownInterface(interfaceName, object) }
            let name = try invocation.argument(1, "property name").string ?? ""
            let value = try invocation.argument(2, "value").unwrapped
            guard interface.properties[name] != nil || interface.writable.contains(name) else {
                throw DBusError(name: DBusError.invalidArgs, message: "no property \(name) on \(interfaceName)")
            }
            guard interface.writable.contains(name) else {
                throw DBusError(name: DBusError.propertyReadOnly, message: "\(name) is read-only")
            }
            if let current = interface.properties[name], current.signature != value.signature {
                throw DBusError(
                    name: DBusError.invalidArgs, message: "\(name) is \(current.signature), not \(value.signature)")
            }
            try interface.willSet?(name, value)
            object.update(interfaceName, [name: value])
            return []
        default:
            throw DBusError(name: DBusError.unknownMethod, message: "no method \(call.member ?? "") on Properties")
        }
    }

    private static func unknownInterface(_ name: String, _ object: DBusExportedObject) -> DBusError {
        DBusError(name: DBusError.invalidArgs, message: "\(object.path) has no interface \(name)")
    }
}
