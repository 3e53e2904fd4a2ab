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
        return Observable.create { observer in
            let current = SerialPropertyState()
            let signalSubscription = changes.subscribe { event in
                switch event {
                case .next(let signal):
                    if let updated = current.apply(signal) { observer.on(.next(updated)) }
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
            let callSubscription = getAll.subscribe { event in
                switch event {
                case .success(let body):
                    guard let all = body.first?.stringKeyed else {
                        observer.on(
                            .error(DBusError.unexpectedReply("GetAll answered \(body.map(\.signature).joined())")))
                        return
                    }
                    observer.on(.next(current.start(all.mapValues(\.unwrapped))))
                case .failure(let error): observer.on(.error(error))
                }
            }
            return Disposables.create(signalSubscription, callSubscription)
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
    private var values: [String: DBusValue]?

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
