import RxDBus
import RxSwift
import Synchronization

/// BlueZ's D-Bus API (`org.bluez`) simulated on a bus connection: an adapter, devices that advertise
/// while it discovers, connections with GATT services, notifications, and faults on demand.
///
/// Every timer (advertisements, notifications, connection delays, link losses, slow reads) runs on
/// the scheduler given at creation, so that a `TestScheduler` makes the whole simulation run in
/// virtual time. The state is behind one lock that is never held while the simulation calls out
/// (updating its objects, emitting signals, replying, scheduling).
public final class BlueZSimulation: Sendable {
    public let configuration: Configuration
    let scheduler: SchedulerType
    let state = Mutex(SimulationState())

    public init(configuration: Configuration = .standard, scheduler: SchedulerType) {
        self.configuration = configuration
        self.scheduler = scheduler
    }

    /// Puts BlueZ on the bus of `endpoint`: exports the object manager at `/`, the agent manager,
    /// the adapter, and later the devices and their GATT objects; requests `org.bluez` once the
    /// objects are in place (so that a client that waits for the name finds them). Disposing takes
    /// everything off the bus and releases the name; until then the run keeps the simulation alive.
    /// One run at a time: a new run ends the previous.
    public func run(on endpoint: DBusEndpoint) -> Disposable {
        var runID = 0
        transact { state, effects in
            if let previous = state.run { effects += stopEffects(previous) }
            state.nextRunID += 1
            runID = state.nextRunID
            let adapter = AdapterState(powered: configuration.poweredAtStart)
            var devices: [String: DeviceState] = [:]
            for profile in configuration.devices { devices[profile.address] = DeviceState(profile: profile) }
            let run = RunState(
                id: runID, endpoint: endpoint, exports: ExportTable(),
                adapterObject: makeAdapterObject(run: runID, adapter: adapter), adapter: adapter, devices: devices)
            state.run = run
            effects += startEffects(run)
        }
        // The run keeps the simulation alive (its objects on the bus refer to it weakly) until disposed.
        return Disposables.create { self.stop(run: runID) }
    }

    private func startEffects(_ run: RunState) -> [Effect] {
        let endpoint = run.endpoint
        let exports = run.exports
        let agentManager = makeAgentManagerObject(run: run.id)
        let adapterObject = run.adapterObject
        let infrastructure = run.infrastructure
        return [
            { _ = infrastructure.insert(endpoint.exportObjectManager(at: BlueZ.rootPath)) },
            {
                exports.export(agentManager, on: endpoint)
                exports.export(adapterObject, on: endpoint)
            },
            { [weak self] in
                guard let self else { return }
                _ = infrastructure.insert(watchClients(on: endpoint, run: run.id))
            },
            {
                let name = endpoint.requestName(BlueZ.busName).subscribe(onError: { error in
                    simulationLog("cannot own \(BlueZ.busName): \(error)")
                })
                _ = infrastructure.insert(name)
            },
        ]
    }

    private func stop(run id: Int) {
        transact { state, effects in
            guard let run = state.run, run.id == id else { return }
            state.run = nil
            effects += stopEffects(run)
        }
    }

    /// Takes a run off the bus; calls still waiting (connections, slow reads) get the error the bus
    /// gives callers of a service that left without replying.
    private func stopEffects(_ run: RunState) -> [Effect] {
        let gone = DBusError(
            name: DBusError.noReply, message: "Message recipient disconnected from message bus without replying")
        var effects: [Effect] = []
        for device in run.devices.values {
            if case .connecting(_, let replies) = device.connection { effects += replies.map { $0.fail(gone) } }
            if let pairing = device.pairing { effects.append(pairing.fail(gone)) }
            for read in (device.gatt?.reads ?? [:]).values { effects += read.replies.map { $0.fail(gone) } }
        }
        effects += releaseAdvertisements(run)
        let exports = run.exports
        let infrastructure = run.infrastructure
        let watches = run.peripheral.watches
        effects.append {
            watches.removeAll()
            exports.removeAll()
            infrastructure.dispose()
        }
        return effects
    }
}
