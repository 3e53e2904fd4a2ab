import RxDBus

extension BlueZSimulation {
    func startDiscovery(_ run: inout RunState, client: String, _ reply: Reply, _ effects: inout [Effect]) {
        guard run.adapter.powered else { return effects.append(reply.fail(BlueZError.notReady)) }
        // Each client may hold one session.
        guard run.discovery.start(client) else { return effects.append(reply.fail(BlueZError.busy)) }
        if run.discovery.sessions.count == 1 { beginDiscovery(&run, &effects) }
        effects.append(reply.succeed())
    }

    func stopDiscovery(_ run: inout RunState, client: String, _ reply: Reply, _ effects: inout [Effect]) {
        guard run.adapter.powered else { return effects.append(reply.fail(BlueZError.notReady)) }
        guard run.discovery.stop(client) else {
            return effects.append(reply.fail(BlueZError.failed("No discovery started")))
        }
        if !run.discovery.isDiscovering { endDiscovery(&run, &effects) }
        effects.append(reply.succeed())
    }

    func setDiscoveryFilter(
        _ run: inout RunState, client: String, _ arguments: [DBusValue], _ reply: Reply, _ effects: inout [Effect]
    ) {
        guard run.adapter.powered else { return effects.append(reply.fail(BlueZError.notReady)) }
        guard arguments.count == 1, let entries = arguments[0].stringKeyed else {
            return effects.append(reply.fail(BlueZError.invalidArguments))
        }
        do {
            run.discovery.setFilter(try DiscoveryFilter.parse(entries), for: client)
            effects.append(reply.succeed())
        } catch {
            effects.append(reply.fail(error))
        }
    }

    /// A client left the bus: its discovery session goes (and discovery with it if it was the last).
    func forgetDiscoveryClient(_ client: String, _ run: inout RunState, _ effects: inout [Effect]) {
        if run.discovery.forget(client) && !run.discovery.isDiscovering { endDiscovery(&run, &effects) }
    }

    /// The first session opened: Discovering, and every device in range starts being heard.
    private func beginDiscovery(_ run: inout RunState, _ effects: inout [Effect]) {
        let adapter = run.adapterObject
        effects.append { adapter.update(BlueZ.adapterInterface, ["Discovering": .bool(true)]) }
        for address in run.devices.keys.sorted() { startAdvertising(address, &run, &effects) }
    }

    /// The last session closed: Discovering false; the devices seen lose their RSSI and TxPower, and
    /// temporary devices that cannot be connected are forgotten at once (the others stay until their
    /// temporary timeout), as bluetoothd's discovery cleanup does.
    func endDiscovery(_ run: inout RunState, _ effects: inout [Effect]) {
        let adapter = run.adapterObject
        effects.append { adapter.update(BlueZ.adapterInterface, ["Discovering": .bool(false)]) }
        for address in run.devices.keys.sorted() {
            guard var device = run.devices[address] else { continue }
            device.advertisingToken = nil
            device.reports = 0
            var invalidated: [String] = []
            if device.rssi != nil { invalidated.append("RSSI") }
            if device.txPowerShown { invalidated.append("TxPower") }
            device.rssi = nil
            device.txPowerShown = false
            run.devices[address] = device
            guard let object = device.object else { continue }
            if !device.profile.isConnectable && device.temporary && !device.isConnected {
                removeDeviceObject(address, &run, &effects)
            } else if !invalidated.isEmpty {
                effects.append { [invalidated] in object.update(BlueZ.deviceInterface, [:], invalidated: invalidated) }
            }
        }
    }

    /// RemoveDevice(o): forgets a device, disconnecting it first if it is connected.
    func removeDevice(_ run: inout RunState, _ arguments: [DBusValue], _ reply: Reply, _ effects: inout [Effect]) {
        guard arguments.count == 1, let path = arguments[0].objectPath else {
            return effects.append(reply.fail(BlueZError.invalidArguments))
        }
        guard let address = run.devices.first(where: { $0.value.path == path && $0.value.object != nil })?.key
        else { return effects.append(reply.fail(BlueZError.doesNotExist)) }
        guard run.adapter.powered else { return effects.append(reply.fail(BlueZError.notReady)) }
        if run.devices[address]?.isConnected == true || run.devices[address]?.isConnecting == true {
            disconnect(address, reason: .local, &run, &effects)
        }
        removeDeviceObject(address, &run, &effects)
        effects.append(reply.succeed())
    }
}
