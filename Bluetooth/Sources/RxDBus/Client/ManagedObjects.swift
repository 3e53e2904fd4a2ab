import RxSwift

/// A remote object manager's tree: object path → interface name → property name → value.
public typealias DBusManagedObjects = [DBusObjectPath: [String: [String: DBusValue]]]

/// What changed in a ``DBusManagedObjects`` tree from one snapshot to the next.
public enum DBusObjectChange: Sendable, Hashable {
    /// Interfaces added to an object, with their properties.
    case interfacesAdded(DBusObjectPath, [String: [String: DBusValue]])
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
    /// Two match rules (the manager's signals, and `PropertiesChanged` below it), on the bus before
    /// `GetManagedObjects` is sent; changes that arrive before
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

    /// The tree after a signal, changed in place (no copy of the tree per signal, unless a consumer
    /// still holds the previous one).
    func apply(_ signal: DBusMessage) -> DBusObjectTree? {
        guard objects != nil, let change = DBusObjectChange(signal) else { return nil }
        guard objects!.apply(change) else { return nil }
        return DBusObjectTree(objects: objects!, change: change)
    }
}

extension DBusObjectChange {
    /// The change an `ObjectManager` or `PropertiesChanged` signal stands for, or `nil` for another
    /// signal or a malformed one.
    init?(_ signal: DBusMessage) {
        switch (signal.interface, signal.member) {
        case (DBusStandard.objectManager?, "InterfacesAdded"):
            guard let path = signal.body.first?.objectPath, signal.body.count > 1,
                let added = DBusConnection.decodeInterfaces(signal.body[1])
            else { return nil }
            self = .interfacesAdded(path, added)
        case (DBusStandard.objectManager?, "InterfacesRemoved"):
            guard let path = signal.body.first?.objectPath, let names = signal.body.dropFirst().first?.strings else {
                return nil
            }
            self = .interfacesRemoved(path, names)
        case (DBusStandard.properties?, "PropertiesChanged"):
            guard let path = signal.path, let interface = signal.body.first?.string,
                let changed = signal.body.dropFirst().first?.stringKeyed
            else { return nil }
            self = .propertiesChanged(
                path, interface: interface, changed: changed.mapValues(\.unwrapped),
                invalidated: signal.body.dropFirst(2).first?.strings ?? [])
        default:
            return nil
        }
    }
}

extension Dictionary where Key == DBusObjectPath, Value == [String: [String: DBusValue]] {
    /// Applies a change in place; `false` if it does not apply (properties of an interface the tree
    /// does not have, which the tree's signals may carry for objects of another manager).
    @discardableResult
    public mutating func apply(_ change: DBusObjectChange) -> Bool {
        switch change {
        case .interfacesAdded(let path, let added):
            self[path, default: [:]].merge(added) { _, new in new }
        case .interfacesRemoved(let path, let names):
            for name in names { self[path]?[name] = nil }
            if self[path]?.isEmpty ?? false { self[path] = nil }
        case .propertiesChanged(let path, let interface, let changed, let invalidated):
            guard self[path]?[interface] != nil else { return false }
            self[path]?[interface]?.merge(changed) { _, new in new }
            for name in invalidated { self[path]?[interface]?[name] = nil }
        }
        return true
    }
}
