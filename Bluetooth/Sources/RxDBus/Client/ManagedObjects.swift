import RxSwift

/// A remote object manager's tree: object path → interface name → property name → value.
public typealias DBusManagedObjects = [DBusObjectPath: [String: [String: DBusValue]]]

/// What changed in a ``DBusManagedObjects`` tree from one snapshot to the next.
public enum DBusObjectChange: Sendable, Hashable {
    case interfacesAdded(DBusObjectPath, [String])
    case interfacesRemoved(DBusObjectPath, [String])
    case propertiesChanged(DBusObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String])
}

/// One state of a remote object tree and the change that led to it (`nil` for the first, the answer
/// to `GetManagedObjects`).
public struct DBusObjectTree: Sendable {
    public var objects: DBusManagedObjects
    public var change: DBusObjectChange?
}

extension DBusEndpoint {
    /// The objects of a remote object manager (`GetManagedObjects`), following `InterfacesAdded`,
    /// `InterfacesRemoved` and the objects' `PropertiesChanged`: BlueZ's whole state in one stream.
    /// Three match rules, on the bus before `GetManagedObjects` is sent; changes that arrive before
    /// its answer are already in it.
    public func managedObjects(of destination: String, manager: DBusObjectPath = .root) -> Observable<DBusObjectTree> {
        let managerSignals = signals(
            matching: DBusMatchRule(sender: destination, path: manager, interface: DBusStandard.objectManager))
        let propertySignals = signals(
            matching: DBusMatchRule(
                sender: destination, pathNamespace: manager, interface: DBusStandard.properties,
                member: "PropertiesChanged"))
        let initial = call(
            destination: destination, path: manager, interface: DBusStandard.objectManager, member: "GetManagedObjects")
        // One merged stream, so that the signals' end and the call's end are one terminal event.
        return Observable.deferred {
            let tree = TreeState()
            let changes = Observable.merge(managerSignals, propertySignals).map(TreeInput.signal)
            let answer = initial.asObservable().map(TreeInput.answer)
            return Observable.merge(changes, answer).compactMap { input -> DBusObjectTree? in
                switch input {
                case .signal(let signal):
                    return tree.apply(signal)
                case .answer(let body):
                    guard let objects = body.first.flatMap(Self.decodeTree) else {
                        throw DBusError.unexpectedReply("GetManagedObjects answered \(body.map(\.signature).joined())")
                    }
                    return tree.start(objects)
                }
            }
        }
    }

    static func decodeTree(_ value: DBusValue) -> DBusManagedObjects? {
        guard let entries = value.dictionaryEntries else { return nil }
        var objects: DBusManagedObjects = [:]
        for entry in entries {
            guard let path = entry.key.objectPath, let interfaces = decodeInterfaces(entry.value) else { return nil }
            objects[path] = interfaces
        }
        return objects
    }

    static func decodeInterfaces(_ value: DBusValue) -> [String: [String: DBusValue]]? {
        guard let interfaces = value.stringKeyed else { return nil }
        var out: [String: [String: DBusValue]] = [:]
        for (name, properties) in interfaces {
            guard let properties = properties.stringKeyed else { return nil }
            out[name] = properties.mapValues(\.unwrapped)
        }
        return out
    }
}

private enum TreeInput {
    case signal(DBusMessage)
    case answer([DBusValue])
}

/// The tree between snapshots; fed from one delivery thread.
private final class TreeState: @unchecked Sendable {
    private var objects: DBusManagedObjects?

    func start(_ initial: DBusManagedObjects) -> DBusObjectTree {
        objects = initial
        return DBusObjectTree(objects: initial, change: nil)
    }

    func apply(_ signal: DBusMessage) -> DBusObjectTree? {
        guard var current = objects else { return nil }
        let change: DBusObjectChange
        switch (signal.interface, signal.member) {
        case (DBusStandard.objectManager?, "InterfacesAdded"):
            guard let path = signal.body.first?.objectPath, signal.body.count > 1,
                let added = DBusConnection.decodeInterfaces(signal.body[1])
            else { return nil }
            current[path, default: [:]].merge(added) { _, new in new }
            change = .interfacesAdded(path, added.keys.sorted())
        case (DBusStandard.objectManager?, "InterfacesRemoved"):
            guard let path = signal.body.first?.objectPath, let names = signal.body.dropFirst().first?.strings else {
                return nil
            }
            for name in names { current[path]?[name] = nil }
            if current[path]?.isEmpty ?? false { current[path] = nil }
            change = .interfacesRemoved(path, names)
        case (DBusStandard.properties?, "PropertiesChanged"):
            guard let path = signal.path, let interface = signal.body.first?.string,
                current[path]?[interface] != nil,
                let changed = signal.body.dropFirst().first?.stringKeyed
            else { return nil }
            let invalidated = signal.body.dropFirst(2).first?.strings ?? []
            let values = changed.mapValues(\.unwrapped)
            current[path]?[interface]?.merge(values) { _, new in new }
            for name in invalidated { current[path]?[interface]?[name] = nil }
            change = .propertiesChanged(path, interface: interface, changed: values, invalidated: invalidated)
        default:
            return nil
        }
        objects = current
        return DBusObjectTree(objects: current, change: change)
    }
}
