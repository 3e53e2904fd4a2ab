import RxDBus
import RxSwift
import Synchronization

extension BlueZSimulation {
    /// GattManager1.RegisterApplication(o root, a{sv} options): as bluetoothd, answers InvalidArguments
    /// or AlreadyExists (the same client and root) at once; otherwise calls the client's
    /// `GetManagedObjects` at `root` and answers when the objects are read: success, or Failed with
    /// bluetoothd's message (see ``ApplicationParser``). The services are then served by the virtual
    /// peripheral (see the DocC page, "The virtual radio").
    func registerApplication(
        _ run: inout RunState, client: String, _ arguments: [DBusValue], _ reply: Reply, _ effects: inout [Effect]
    ) {
        guard let root = arguments.first?.objectPath else {
            return effects.append(reply.fail(BlueZError.invalidArguments))
        }
        guard run.peripheral.application(client, root) == nil else {
            return effects.append(reply.fail(BlueZError.alreadyExists))
        }
        guard arguments.count == 2, arguments[1].dictionaryEntries != nil else {
            return effects.append(reply.fail(BlueZError.invalidArguments))
        }
        run.peripheral.applications.append(RegisteredApplication(owner: client, root: root, pending: reply))
        watchSignals(of: client, &run, &effects)
        let endpoint = run.endpoint
        let id = run.id
        effects.append { [weak self] in
            _ = endpoint.call(
                destination: client, path: root, interface: DBusStandard.objectManager, member: "GetManagedObjects"
            ).subscribe { result in
                self?.transactRun(id) { run, effects in
                    self?.applicationRead(client, root, try? result.get(), &run, &effects)
                }
            }
        }
    }

    /// The application's objects have come (`nil`: GetManagedObjects failed).
    private func applicationRead(
        _ client: String, _ root: DBusObjectPath, _ body: [DBusValue]?, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard let index = run.peripheral.application(client, root),
            let reply = run.peripheral.applications[index].pending
        else { return }
        do throws(DBusError) {
            let services = try ApplicationParser.services(from: body)
            run.peripheral.applications[index].services = services
            run.peripheral.applications[index].pending = nil
            effects.append(reply.succeed())
            refreshVirtualPeripheral(&run, &effects)
            effects += writeHandlesBack(client, services, &run)
        } catch {
            run.peripheral.applications.remove(at: index)
            effects.append(reply.fail(error))
            unwatchSignalsIfIdle(client, &run, &effects)
        }
    }

    /// GattManager1.UnregisterApplication(o root): DoesNotExist unless the caller registered `root`.
    /// The virtual peripheral loses the services; a central connected to it keeps the link
    /// and loses their objects (bluetoothd's Service Changed, and the central's new discovery).
    func unregisterApplication(
        _ run: inout RunState, client: String, _ arguments: [DBusValue], _ reply: Reply, _ effects: inout [Effect]
    ) {
        guard arguments.count == 1, let root = arguments[0].objectPath else {
            return effects.append(reply.fail(BlueZError.invalidArguments))
        }
        guard let index = run.peripheral.application(client, root) else {
            return effects.append(reply.fail(BlueZError.doesNotExist))
        }
        // A registration still reading the objects is dropped unanswered, as bluetoothd frees it.
        run.peripheral.applications.remove(at: index)
        effects.append(reply.succeed())
        refreshVirtualPeripheral(&run, &effects)
        unwatchSignalsIfIdle(client, &run, &effects)
    }
}

/// Signal subscriptions by client; only effects touch it.
final class WatchTable: Sendable {
    private let subscriptions = Mutex<[String: Disposable]>([:])

    func insertIfAbsent(_ key: String, _ subscribe: () -> Disposable) {
        let present = subscriptions.withLock { $0[key] != nil }
        guard !present else { return }
        let disposable = subscribe()
        subscriptions.withLock { $0[key] = disposable }
    }

    func remove(_ key: String) {
        subscriptions.withLock { $0.removeValue(forKey: key) }?.dispose()
    }

    func removeAll() {
        let all = subscriptions.withLock { table in
            defer { table = [:] }
            return Array(table.values)
        }
        for disposable in all { disposable.dispose() }
    }
}
