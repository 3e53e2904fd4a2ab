import Dispatch
import RxSwift
import Synchronization

/// A message bus inside one process, for tests: connections made with ``connect()`` call, signal and
/// export as on a real bus (the same match rules, names, `NameOwnerChanged`, the same standard
/// interfaces), and every delivery — a call to its object, a reply, a signal — is an action on the
/// given scheduler. With a `TestScheduler`, a test of code written against ``DBusEndpoint`` runs in
/// virtual time, and its timeouts too.
public final class LocalBus: Sendable {
    let scheduler: any SchedulerType
    private let state = Mutex(State())

    private struct State {
        var nextID = 1
        var connections: [String: WeakConnection] = [:]
        /// Well-known name → unique name.
        var owners: [String: String] = [:]
    }

    public init(scheduler: any SchedulerType) { self.scheduler = scheduler }

    /// A new connection, with its unique name.
    public func connect() -> LocalBusConnection {
        let name = state.withLock { state in
            defer { state.nextID += 1 }
            return ":1.\(state.nextID)"
        }
        let connection = LocalBusConnection(bus: self, uniqueName: name)
        state.withLock { $0.connections[name] = WeakConnection(connection: connection) }
        nameOwnerChanged(name, from: "", to: name)
        return connection
    }

    /// The number of match rules `uniqueName` has on the bus (what the daemon's statistics report).
    public func matchRuleCount(of uniqueName: String) -> Int {
        connection(uniqueName)?.matchCount ?? 0
    }

    /// The unique name that owns `name`, or `name` if it is a live unique name.
    func resolve(_ name: String) -> LocalBusConnection? {
        state.withLock { state in
            let unique = name.hasPrefix(":") ? name : state.owners[name]
            return unique.flatMap { state.connections[$0]?.connection }
        }
    }

    private func connection(_ uniqueName: String) -> LocalBusConnection? {
        state.withLock { $0.connections[uniqueName]?.connection }
    }

    /// The names a connection answers to: its unique name and the well-known names it owns.
    func names(of uniqueName: String) -> Set<String> {
        state.withLock { state in
            var names: Set<String> = [uniqueName]
            for (name, owner) in state.owners where owner == uniqueName { names.insert(name) }
            return names
        }
    }

    /// Delivers a signal to every connection with a matching rule (or to its one destination).
    func route(_ signal: DBusMessage) {
        let senderNames = signal.sender.map(names(of:)) ?? [DBusStandard.busName]
        let targets = state.withLock { state in state.connections.values.compactMap(\.connection) }
        let receivers = targets.filter { signal.destination == nil || signal.destination == $0.uniqueName }
            .sorted { $0.order < $1.order }
        for receiver in receivers { receiver.receive(signal, senderNames: senderNames) }
    }

    func close(_ connection: LocalBusConnection) {
        let released = state.withLock { state -> [String] in
            state.connections[connection.uniqueName] = nil
            let owned = state.owners.filter { $0.value == connection.uniqueName }.map(\.key).sorted()
            for name in owned { state.owners[name] = nil }
            return owned
        }
        for name in released { nameOwnerChanged(name, from: connection.uniqueName, to: "") }
        nameOwnerChanged(connection.uniqueName, from: connection.uniqueName, to: "")
    }

    // MARK: The daemon's own methods

    func daemonCall(_ call: DBusMessage) -> Result<[DBusValue], DBusError> {
        let sender = call.sender ?? ""
        let name = call.body.first?.string ?? ""
        switch call.member {
        case "RequestName":
            let (code, changed) = state.withLock { state -> (UInt32, Bool) in
                switch state.owners[name] {
                case sender?: return (4, false)
                case nil:
                    state.owners[name] = sender
                    return (1, true)
                default: return (3, false)
                }
            }
            if changed { nameOwnerChanged(name, from: "", to: sender) }
            return .success([.uint32(code)])
        case "ReleaseName":
            let (code, released) = state.withLock { state -> (UInt32, Bool) in
                switch state.owners[name] {
                case sender?:
                    state.owners[name] = nil
                    return (1, true)
                case nil: return (2, false)
                default: return (3, false)
                }
            }
            if released { nameOwnerChanged(name, from: sender, to: "") }
            return .success([.uint32(code)])
        case "GetNameOwner":
            guard let owner = resolve(name) else {
                return .failure(DBusError(name: DBusError.nameHasNoOwner, message: "no owner of \(name)"))
            }
            return .success([.string(owner.uniqueName)])
        case "NameHasOwner":
            return .success([.bool(resolve(name) != nil)])
        case "AddMatch", "RemoveMatch":
            // Connections of this bus keep their rules themselves.
            return .success([])
        default:
            return .failure(
                DBusError(name: DBusError.unknownMethod, message: "the bus has no method \(call.member ?? "")"))
        }
    }

    private func nameOwnerChanged(_ name: String, from old: String, to new: String) {
        route(
            DBusMessage(
                kind: .signal, sender: nil, path: DBusStandard.busPath, interface: DBusStandard.busName,
                member: "NameOwnerChanged", body: [.string(name), .string(old), .string(new)]))
    }
}

private struct WeakConnection {
    weak var connection: LocalBusConnection?
}
