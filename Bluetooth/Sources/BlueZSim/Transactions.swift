import Dispatch
import Foundation
import RxDBus
import RxSwift
import Synchronization

extension BlueZSimulation {
    /// Changes the state under the lock and collects what is to be done about the change; then runs
    /// it outside the lock. Effects run one at a time in the order their changes were made, by
    /// whichever thread finds no one else running them, so that signals and replies leave in the
    /// order of the state they report even when method calls and timers come from several threads;
    /// an effect that leads back into the simulation queues its effects behind the current ones.
    func transact(_ body: (inout SimulationState, inout [Effect]) -> Void) {
        let drains = state.withLock { state -> Bool in
            var effects: [Effect] = []
            body(&state, &effects)
            state.pending.append(contentsOf: effects)
            guard !state.draining, !state.pending.isEmpty else { return false }
            state.draining = true
            return true
        }
        guard drains else { return }
        while true {
            let batch = state.withLock { state -> [Effect] in
                let batch = state.pending
                state.pending = []
                if batch.isEmpty { state.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            for effect in batch { effect() }
        }
    }

    /// A transaction on the current run, if it is run `id` (or any run when `id` is `nil`).
    func transactRun(_ id: Int? = nil, _ body: (inout RunState, inout [Effect]) -> Void) {
        transact { state, effects in
            guard let run = state.run, id == nil || run.id == id else { return }
            body(&state.run!, &effects)
        }
    }

    /// An effect that runs `body` as a transaction of run `id` after `delay` on the scheduler (at
    /// once, when `delay` is zero, so that a virtual-time scheduler adds no tick).
    func after(
        _ delay: DispatchTimeInterval, run id: Int,
        _ body: @escaping @Sendable (BlueZSimulation, inout RunState, inout [Effect]) -> Void
    ) -> Effect {
        { [weak self] in
            guard let self else { return }
            if delay.isZero {
                transactRun(id) { run, effects in body(self, &run, &effects) }
                return
            }
            _ = scheduler.scheduleRelative((), dueTime: delay) { [weak self] _ in
                if let self { transactRun(id) { run, effects in body(self, &run, &effects) } }
                return Disposables.create()
            }
        }
    }

    /// A method of an exported object whose handler runs as a transaction of run `id` and answers
    /// through the ``Reply`` it is given, now or later.
    func method(
        in inSignature: String = "", out outSignature: String = "", run id: Int,
        _ body:
            @escaping @Sendable (BlueZSimulation, inout RunState, DBusMethodInvocation, Reply, inout [Effect]) -> Void
    ) -> DBusMethod {
        DBusMethod(in: inSignature, out: outSignature) { [weak self] invocation in
            let reply = Reply()
            var handled = false
            self?.transactRun(id) { run, effects in
                handled = true
                guard let self else { return }
                body(self, &run, invocation, reply, &effects)
            }
            guard handled else {
                return .error(DBusError(name: DBusError.unknownObject, message: "The simulation has stopped"))
            }
            return reply.single
        }
    }
}

/// A method call's answer, given when the simulation gets to it: at once, or after a delay (a
/// connection being made, a slow read).
struct Reply: Sendable {
    private let subject = AsyncSubject<[DBusValue]>()

    var single: Single<[DBusValue]> { subject.asSingle() }

    func succeed(_ values: [DBusValue] = []) -> Effect {
        let subject = subject
        return {
            subject.onNext(values)
            subject.onCompleted()
        }
    }

    func fail(_ error: DBusError) -> Effect {
        let subject = subject
        return { subject.onError(error) }
    }
}

/// The disposables of the objects a run has put on the bus, by path. Only effects touch it, and
/// effects run one at a time in order, so an object is always on the bus before it is taken off.
final class ExportTable: Sendable {
    private let exports = Mutex<[DBusObjectPath: Disposable]>([:])

    func export(_ object: DBusExportedObject, on endpoint: any DBusEndpoint) {
        do {
            let disposable = try endpoint.export(object)
            exports.withLock { $0[object.path] = disposable }
        } catch {
            simulationLog("cannot export \(object.path): \(error)")
        }
    }

    func remove(_ path: DBusObjectPath) {
        exports.withLock { $0.removeValue(forKey: path) }?.dispose()
    }

    /// Takes everything off the bus, deepest paths first (as BlueZ removes a device's descriptors
    /// before their characteristics, and those before their services and the device).
    func removeAll() {
        let all = exports.withLock { exports in
            defer { exports = [:] }
            return exports.sorted { $0.key.rawValue.count > $1.key.rawValue.count }.map(\.value)
        }
        for disposable in all { disposable.dispose() }
    }
}

extension DispatchTimeInterval {
    /// The interval in seconds (`.never`: infinity).
    var seconds: Double {
        switch self {
        case .seconds(let n): Double(n)
        case .milliseconds(let n): Double(n) / 1e3
        case .microseconds(let n): Double(n) / 1e6
        case .nanoseconds(let n): Double(n) / 1e9
        case .never: .infinity
        @unknown default: .infinity
        }
    }

    var isZero: Bool {
        switch self {
        case .seconds(let n): n == 0
        case .milliseconds(let n): n == 0
        case .microseconds(let n): n == 0
        case .nanoseconds(let n): n == 0
        case .never: false
        @unknown default: false
        }
    }
}

/// Problems the simulation can only report, not answer (an object it could not export).
func simulationLog(_ message: String) {
    FileHandle.standardError.write(Data("bluez-sim: \(message)\n".utf8))
}
