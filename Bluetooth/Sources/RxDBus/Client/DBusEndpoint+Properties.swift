import RxSwift

extension DBusEndpoint {
    /// The properties of one interface of a remote object, following `PropertiesChanged`: the first
    /// element is `GetAll`'s answer, each next one the set after a change. The match rule is on the bus
    /// before `GetAll` is sent, so no change is missed; a change that arrives before the answer is
    /// already in it (a bus delivers one sender's messages in order) and is not applied twice.
    public func properties(
        of destination: String, path: DBusObjectPath, interface: String
    ) -> Observable<[String: DBusValue]> {
        let changes = signals(
            matching: DBusMatchRule(
                sender: destination, path: path, interface: DBusStandard.properties, member: "PropertiesChanged",
                arg0: interface))
        let getAll = call(
            destination: destination, path: path, interface: DBusStandard.properties, member: "GetAll",
            arguments: [.string(interface)])
        // One merged stream, so that the signals' end and the call's end are one terminal event.
        return Observable.deferred {
            let current = SerialPropertyState()
            let changed = changes.map { Optional($0) }
            let answer = getAll.asObservable().map { body -> DBusMessage? in
                guard let all = body.first?.stringKeyed else {
                    throw DBusError.unexpectedReply("GetAll answered \(body.map(\.signature).joined())")
                }
                _ = current.start(all.mapValues(\.unwrapped))
                return nil
            }
            return Observable.merge(changed, answer).compactMap { signal -> [String: DBusValue]? in
                guard let signal else { return current.values }
                return current.apply(signal)
            }
        }
    }

    /// One property of a remote object (`Get`).
    public func property(
        _ name: String, of destination: String, path: DBusObjectPath, interface: String
    ) -> Single<DBusValue> {
        call(
            destination: destination, path: path, interface: DBusStandard.properties, member: "Get",
            arguments: [.string(interface), .string(name)]
        ).map { body in
            guard let value = body.first else { throw DBusError.unexpectedReply("Get answered nothing") }
            return value.unwrapped
        }
    }

    /// Sets one property of a remote object (`Set`).
    public func setProperty(
        _ name: String, to value: DBusValue, of destination: String, path: DBusObjectPath, interface: String
    ) -> Single<Void> {
        call(
            destination: destination, path: path, interface: DBusStandard.properties, member: "Set",
            arguments: [.string(interface), .string(name), .variant(value)]
        ).map { _ in () }
    }
}

/// The property set while `GetAll` is in flight and after: both callbacks come from the connection's
/// one delivery thread (or scheduler), so plain state suffices; the lock is for the rare other case.
private final class SerialPropertyState: @unchecked Sendable {
    private(set) var values: [String: DBusValue]?

    func start(_ all: [String: DBusValue]) -> [String: DBusValue] {
        values = all
        return all
    }

    func apply(_ signal: DBusMessage) -> [String: DBusValue]? {
        guard var current = values, let changed = signal.body.dropFirst().first?.stringKeyed else { return nil }
        for (name, value) in changed { current[name] = value.unwrapped }
        for name in signal.body.dropFirst(2).first?.strings ?? [] { current[name] = nil }
        values = current
        return current
    }
}
