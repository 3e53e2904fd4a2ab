@_spi(BlueZ) import CoreBluetooth
import RxDBus
import RxSwift
import Synchronization

/// The manager's GATT application: every added service below one root, an object manager at the root,
/// and one registration with the adapter's `GattManager1`.
///
/// BlueZ reads an application's objects once, when it is registered (`GetManagedObjects`), so a change
/// of services is made by unregistering the application, changing the exported objects, and
/// registering it again. Those steps run one change at a time (``SerialJobs``); each change takes the
/// services as they are when it runs.
final class GattApplication: Sendable {
    let bus: any DBusEndpoint
    let adapterPath: DBusObjectPath
    let root: DBusObjectPath
    private let jobs = SerialJobs()
    private let state = Mutex(State())

    private struct State {
        var services: [PublishedService] = []
        var nextService = 0
        var exports: [DBusObjectPath: Disposable] = [:]
        var objectManager: Disposable?
        var registered = false
        var closed = false
    }

    init(bus: any DBusEndpoint, adapterPath: DBusObjectPath, root: DBusObjectPath) {
        self.bus = bus
        self.adapterPath = adapterPath
        self.root = root
    }

    /// The path of the next service added (`service0`, `service1`, …; never reused).
    func nextServicePath() -> DBusObjectPath {
        state.withLock { state in
            defer { state.nextService += 1 }
            return root.appending("service\(state.nextService)")
        }
    }

    func contains(_ service: CBMutableService) -> Bool {
        state.withLock { $0.services.contains { $0.service === service } }
    }

    /// The published services.
    var services: [CBMutableService] { state.withLock { $0.services.map(\.service) } }

    /// The exported object of a published characteristic.
    func object(for characteristic: CBCharacteristic) -> DBusExportedObject? {
        state.withLock { state in
            state.services.lazy.compactMap { $0.characteristics[ObjectIdentifier(characteristic)] }.first
        }
    }

    /// Adds a service and registers the application with it; `completion` has BlueZ's answer (and the
    /// service is taken out again if BlueZ refused).
    func add(_ service: PublishedService, completion: @escaping @Sendable (Error?) -> Void) {
        state.withLock { $0.services.append(service) }
        jobs.enqueue { [self] done in
            synchronize { error in
                if error != nil {
                    // The others were registered before: register them again without this one.
                    _ = self.take { $0 === service.service }
                    self.jobs.enqueue { done in self.synchronize { _ in done() } }
                }
                completion(error)
                done()
            }
        }
    }

    /// Removes the services `matching` says, and registers what is left; the removed services.
    @discardableResult
    func remove(where matching: @escaping (CBMutableService) -> Bool) -> [PublishedService] {
        let removed = take(where: matching)
        guard !removed.isEmpty else { return [] }
        jobs.enqueue { [self] done in synchronize { _ in done() } }
        return removed
    }

    /// Takes out the services `matching` picks (asked outside the lock).
    private func take(where matching: (CBMutableService) -> Bool) -> [PublishedService] {
        let picked = Set(
            state.withLock { $0.services }.filter { matching($0.service) }.map { ObjectIdentifier($0.service) })
        return state.withLock { state in
            let removed = state.services.filter { picked.contains(ObjectIdentifier($0.service)) }
            state.services.removeAll { picked.contains(ObjectIdentifier($0.service)) }
            return removed
        }
    }

    /// BlueZ came onto the bus again (bluetoothd restarted) and has forgotten the application: it is
    /// registered again, if it has services.
    func registerAgain() {
        let wanted = state.withLock { state in
            state.registered = false
            return !state.services.isEmpty && !state.closed
        }
        guard wanted else { return }
        jobs.enqueue { [self] done in synchronize { _ in done() } }
    }

    /// Unregisters and unexports everything, at once: the manager is going.
    func close() {
        let (registered, exports, manager) = state.withLock { state in
            defer {
                state.closed = true
                state.services = []
                state.exports = [:]
                state.objectManager = nil
                state.registered = false
            }
            return (state.registered, Array(state.exports.values), state.objectManager)
        }
        if registered { unregister() }
        exports.forEach { $0.dispose() }
        manager?.dispose()
    }

    // MARK: Registration

    /// Brings BlueZ up to date with the services: unregisters the application if it is registered,
    /// exports and unexports objects to match the services, and registers it if there are any.
    private func synchronize(_ completion: @escaping @Sendable (Error?) -> Void) {
        let (registered, closed) = state.withLock { state in
            defer { state.registered = false }
            return (state.registered, state.closed)
        }
        guard !closed else { return completion(DBusError.closed) }
        let unregistered: Single<Void> =
            registered
            ? call("UnregisterApplication", [.objectPath(root)]).map { _ in () }.catchAndReturn(())
            : .just(())
        _ = unregistered.subscribe(onSuccess: { [self] in
            guard exportServices() else { return completion(nil) }
            _ = call("RegisterApplication", [.objectPath(root), .vardict([:])]).subscribe(
                onSuccess: { [self] _ in
                    let closed = state.withLock { state in
                        state.registered = !state.closed
                        return state.closed
                    }
                    if closed { unregister() }
                    completion(nil)
                },
                onFailure: { completion($0) })
        })
    }

    /// Exports the services' objects not yet exported and unexports those of removed services; whether
    /// any service is left.
    private func exportServices() -> Bool {
        let (wanted, exported, manager) = state.withLock { state in
            (state.services.flatMap(\.objects), state.exports, state.objectManager)
        }
        let wantedPaths = Set(wanted.map(\.path))
        for (path, export) in exported where !wantedPaths.contains(path) { export.dispose() }
        var exports = exported.filter { wantedPaths.contains($0.key) }
        for object in wanted where exports[object.path] == nil {
            exports[object.path] = try? bus.export(object)
        }
        let objectManager = wanted.isEmpty ? nil : (manager ?? bus.exportObjectManager(at: root))
        if wanted.isEmpty { manager?.dispose() }
        let stale = state.withLock { state -> [Disposable] in
            guard !state.closed else { return Array(exports.values) + [objectManager].compactMap { $0 } }
            state.exports = exports
            state.objectManager = objectManager
            return []
        }
        stale.forEach { $0.dispose() }
        return !wanted.isEmpty && stale.isEmpty
    }

    private func unregister() {
        call("UnregisterApplication", [.objectPath(root)]).forgettingReply()
    }

    private func call(_ member: String, _ arguments: [DBusValue]) -> Single<[DBusValue]> {
        bus.call(
            destination: BlueZ.service, path: adapterPath, interface: BlueZ.gattManager, member: member,
            arguments: arguments)
    }
}
