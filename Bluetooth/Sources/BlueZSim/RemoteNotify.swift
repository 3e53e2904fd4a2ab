import RxDBus

/// Notifications from a virtual peripheral: a central's StartNotify writes the Client Characteristic
/// Configuration, on which bluetoothd's GATT server calls the application's StartNotify (the first
/// enable) and StopNotify (the last disable, or the link's loss), ignoring their answers; every
/// PropertiesChanged of `Value` the application emits is sent to a central that has notifications
/// on, and becomes a PropertiesChanged of `Value` on the central's characteristic object.
extension BlueZSimulation {
    func startNotifyAttribute(
        _ path: DBusObjectPath, _ address: String, client: String, _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        startNotify(path, address, client: client, reply, &run, &effects)
        syncRemoteNotify(address, &run, &effects)
    }

    func stopNotifyAttribute(
        _ path: DBusObjectPath, _ address: String, client: String, _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        stopNotify(path, address, client: client, reply, &run, &effects)
        syncRemoteNotify(address, &run, &effects)
    }

    /// Tells the applications of the virtual peripheral which of their characteristics a central now has
    /// notifications on: StartNotify for those newly on, StopNotify for those no longer on (the last
    /// session stopped, the link went). No-reply calls, as bluetoothd sends them.
    func syncRemoteNotify(_ address: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address], var remote = device.remote else { return }
        let sessions = device.gatt?.notify ?? [:]
        let active = Set(sessions.filter { $0.value.token != nil }.keys).intersection(remote.attributes.keys)
        let starting = active.subtracting(remote.notifying).sorted()
        let stopping = remote.notifying.subtracting(active).sorted()
        guard !starting.isEmpty || !stopping.isEmpty else { return }
        remote.notifying = active
        device.remote = remote
        run.devices[address] = device
        let calls = (starting.map { ($0, "StartNotify") } + stopping.map { ($0, "StopNotify") }).compactMap {
            path, member -> DBusMessage? in
            guard let attribute = remote.attributes[path] else { return nil }
            return .methodCall(
                destination: attribute.owner, path: attribute.path, interface: attribute.interface, member: member,
                body: [])
        }
        let endpoint = run.endpoint
        effects.append {
            for call in calls { endpoint.send(call) }
        }
    }

    /// After a change that may end sessions on any device (a central client leaving the bus).
    func syncAllRemoteNotify(_ run: inout RunState, _ effects: inout [Effect]) {
        for (address, device) in run.devices.sorted(by: { $0.key < $1.key }) where device.remote != nil {
            syncRemoteNotify(address, &run, &effects)
        }
    }

    /// A PropertiesChanged of a client's characteristic: a new `Value` of a characteristic whose
    /// notifications a connected central has on is a notification (at most MTU - 3 bytes).
    func valueChanged(_ client: String, _ message: DBusMessage, _ run: inout RunState, _ effects: inout [Effect]) {
        guard message.body.count >= 2, let appPath = message.path,
            let value = message.body[1].stringKeyed?["Value"]?.unwrapped.bytes
        else { return }
        let address = virtualPeripheralAddress
        guard var device = run.devices[address], device.isConnected, var gatt = device.gatt,
            let path = device.remote?.attributes.first(where: {
                $0.value.owner == client && $0.value.path == appPath && $0.value.kind == .characteristic
            })?.key, gatt.notify[path]?.token != nil
        else { return }
        gatt.notificationCounts[path, default: 0] += 1
        device.gatt = gatt
        run.devices[address] = device
        if let object = gatt.objects[path] {
            let sent = Array(value.prefix(Int(device.profile.mtu) - 3))
            effects.append(Self.signalValue(sent, of: object, interface: BlueZ.gattCharacteristicInterface))
        }
    }
}
