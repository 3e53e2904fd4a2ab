import Dispatch
import RxSwift
import Synchronization

/// A connection to a ``LocalBus``. It stays on the bus until ``close()`` or until it is released.
public final class LocalBusConnection: DBusEndpoint, Sendable {
    public let uniqueName: String
    private let bus: LocalBus
    /// Connections receive a signal in the order they joined, as from a real daemon.
    let order: Int
    private let registry: ExportRegistry
    private let state = Mutex(State())

    private struct State {
        var nextMatch = 0
        var matches: [Int: Match] = [:]
        var closed = false
    }

    private struct Match {
        let rule: DBusMatchRule
        let observer: AnyObserver<DBusMessage>
    }

    init(bus: LocalBus, uniqueName: String) {
        self.bus = bus
        self.uniqueName = uniqueName
        order = Int(uniqueName.dropFirst(3)) ?? 0
        registry = ExportRegistry { [weak bus] signal in
            var stamped = signal
            stamped.sender = uniqueName
            bus?.route(stamped)
        }
    }

    deinit { close() }

    /// Leaves the bus: its names are released, its objects leave, its subscriptions fail with
    /// `Disconnected`.
    public func close() {
        let matches = state.withLock { state -> [Match] in
            guard !state.closed else { return [] }
            state.closed = true
            defer { state.matches = [:] }
            return state.matches.keys.sorted().compactMap { state.matches[$0] }
        }
        registry.removeAll()
        bus.close(self)
        for match in matches {
            match.observer.on(.error(DBusError.closed))
        }
    }

    var matchCount: Int { state.withLock { $0.matches.count } }

    public func call(_ message: DBusMessage, timeout: DispatchTimeInterval) -> Single<[DBusValue]> {
        var stamped = message
        stamped.sender = uniqueName
        let call = stamped
        let bus = self.bus
        let registryOfDestination: @Sendable () -> ExportRegistry? = { [weak bus] in
            call.destination.flatMap { bus?.resolve($0)?.registry }
        }
        return Single.create { singleObserver in
            let observer = UncheckedSendable(singleObserver)
            let reply = SingleAssignmentDisposable()
            let answered = Mutex(false)
            let deliver: @Sendable (Result<[DBusValue], DBusError>) -> Void = { result in
                guard
                    !answered.withLock({ done in
                        defer { done = true }; return done
                    })
                else { return }
                switch result {
                case .success(let body): observer.value(.success(body))
                case .failure(let error): observer.value(.failure(error))
                }
            }
            let timer = bus.scheduler.scheduleRelative((), dueTime: timeout) { _ in
                deliver(.failure(DBusError(name: DBusError.noReply, message: "no reply within the timeout")))
                return Disposables.create()
            }
            let delivery = bus.scheduler.schedule(()) { _ in
                if call.destination == DBusStandard.busName {
                    let result = bus.daemonCall(call)
                    return bus.scheduler.schedule(()) { _ in
                        deliver(result)
                        return Disposables.create()
                    }
                }
                guard let registry = registryOfDestination() else {
                    let error = DBusError(
                        name: DBusError.serviceUnknown, message: "the name \(call.destination ?? "") is not owned")
                    return bus.scheduler.schedule(()) { _ in
                        deliver(.failure(error))
                        return Disposables.create()
                    }
                }
                return registry.handle(call).subscribe { event in
                    let result = event.mapError(DBusError.init(wrapping:))
                    reply.setDisposable(
                        bus.scheduler.schedule(()) { _ in
                            deliver(result)
                            return Disposables.create()
                        })
                }
            }
            return Disposables.create(timer, delivery, reply)
        }
    }

    public func signals(matching rule: DBusMatchRule) -> Observable<DBusMessage> {
        Observable.create { [weak self] observer in
            guard let self else {
                observer.on(.error(DBusError.closed))
                return Disposables.create()
            }
            let id = self.state.withLock { state -> Int? in
                guard !state.closed else { return nil }
                defer { state.nextMatch += 1 }
                state.matches[state.nextMatch] = Match(rule: rule, observer: observer)
                return state.nextMatch
            }
            guard let id else {
                observer.on(.error(DBusError.closed))
                return Disposables.create()
            }
            return Disposables.create { [weak self] in
                _ = self?.state.withLock { $0.matches.removeValue(forKey: id) }
            }
        }
    }

    /// A signal the bus routes here: delivered, on the scheduler, to each rule it matches that is still
    /// subscribed then.
    func receive(_ signal: DBusMessage, senderNames: Set<String>) {
        let ids = state.withLock { state in
            state.matches.filter { $0.value.rule.matches(signal, senderNames: senderNames) }.keys.sorted()
        }
        guard !ids.isEmpty else { return }
        _ = bus.scheduler.schedule(()) { [weak self] _ in
            for id in ids {
                guard let observer = self?.state.withLock({ $0.matches[id]?.observer }) else { continue }
                observer.on(.next(signal))
            }
            return Disposables.create()
        }
    }

    public func send(_ message: DBusMessage) {
        var stamped = message
        stamped.sender = uniqueName
        if message.kind == .signal {
            bus.route(stamped)
        } else if message.kind == .methodCall {
            _ = call(stamped, timeout: .never).subscribe { _ in }
        }
    }

    public func export(_ object: DBusExportedObject) throws -> Disposable { try registry.add(object) }

    public func exportObjectManager(at path: DBusObjectPath) -> Disposable { registry.addManager(at: path) }
}
