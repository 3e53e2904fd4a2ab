import RxDBus

/// Why a link went down: the reasons of Device1's `Disconnected(s reason, s message)` signal, with
/// bluetoothd's messages.
public enum DisconnectReason: String, Sendable, CaseIterable {
    case unknown = "org.bluez.Reason.Unknown"
    /// The link supervision timeout expired (the device went out of range or died).
    case timeout = "org.bluez.Reason.Timeout"
    /// This host ended the connection (Disconnect, RemoveDevice, the radio going off).
    case local = "org.bluez.Reason.Local"
    /// The device ended the connection.
    case remote = "org.bluez.Reason.Remote"
    case authentication = "org.bluez.Reason.Authentication"
    case suspend = "org.bluez.Reason.Suspend"

    public var message: String {
        switch self {
        case .unknown: "Unspecified"
        case .timeout: "Connection timeout"
        case .local: "Connection terminated by local host"
        case .remote: "Connection terminated by remote user"
        case .authentication: "Connection terminated due to authentication failure"
        case .suspend: "Connection terminated by local host for suspend"
        }
    }
}

extension BlueZSimulation {
    /// Device1.Connect: the link comes up after `connectDelay` (Connected true, then the reply), the
    /// GATT objects `serviceResolveDelay` later (InterfacesAdded for each, then ServicesResolved).
    /// Connecting makes the device permanent, as in bluetoothd.
    func connect(_ address: String, _ reply: Reply, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address], device.object != nil else {
            return effects.append(reply.fail(BlueZError.doesNotExist))
        }
        guard run.adapter.powered else { return effects.append(reply.fail(BlueZError.notReady)) }
        guard device.pairing == nil else { return effects.append(reply.fail(BlueZError.inProgress)) }
        switch device.connection {
        case .connected:
            return effects.append(reply.succeed())
        case .connecting:
            return effects.append(reply.fail(BlueZError.inProgress))
        case .disconnected:
            break
        }
        device.temporary = false
        device.removalToken = nil
        let token = run.token()
        device.connection = .connecting(token: token, replies: [reply])
        run.devices[address] = device
        effects.append(
            after(configuration.connectDelay, run: run.id) { sim, run, effects in
                sim.linkEstablished(address, attempt: token, &run, &effects)
            })
    }

    /// Device1.Disconnect: cancels a connection being made, ends one that is up (reason Local), and
    /// succeeds for a device that is not connected.
    func disconnectCall(_ address: String, _ reply: Reply, _ run: inout RunState, _ effects: inout [Effect]) {
        disconnect(address, reason: .local, &run, &effects)
        effects.append(reply.succeed())
    }

    /// Device1.Pair: pairs (and bonds) a connected device at once; connects first to one that is not.
    func pair(_ address: String, _ reply: Reply, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address], device.object != nil else {
            return effects.append(reply.fail(BlueZError.doesNotExist))
        }
        guard run.adapter.powered else { return effects.append(reply.fail(BlueZError.notReady)) }
        guard device.pairing == nil, !device.isConnecting else {
            return effects.append(reply.fail(BlueZError.inProgress))
        }
        guard !device.paired else { return effects.append(reply.fail(BlueZError.alreadyExists)) }
        device.temporary = false
        device.removalToken = nil
        if device.isConnected {
            run.devices[address] = device
            completePairing(address, &run, &effects)
            return effects.append(reply.succeed())
        }
        let token = run.token()
        device.pairing = reply
        device.connection = .connecting(token: token, replies: [])
        run.devices[address] = device
        effects.append(
            after(configuration.connectDelay, run: run.id) { sim, run, effects in
                sim.linkEstablished(address, attempt: token, &run, &effects)
            })
    }

    /// Device1.CancelPairing: a Pair still waiting for its connection fails with
    /// AuthenticationCanceled (and the connection it started is abandoned).
    func cancelPairing(_ address: String, _ reply: Reply, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address], let pairing = device.pairing else {
            return effects.append(reply.fail(BlueZError.doesNotExist))
        }
        device.pairing = nil
        if case .connecting(_, let replies) = device.connection, replies.isEmpty { device.connection = .disconnected }
        run.devices[address] = device
        effects.append(pairing.fail(BlueZError.authenticationCanceled))
        effects.append(reply.succeed())
    }

    private func completePairing(_ address: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address] else { return }
        device.paired = true
        device.temporary = false
        run.devices[address] = device
        if let object = device.object {
            effects.append { object.update(BlueZ.deviceInterface, ["Paired": .bool(true), "Bonded": .bool(true)]) }
        }
    }

    /// The connection attempt `attempt` has had its time: the link comes up, or the attempt fails
    /// (a fault asked for, or the device is gone).
    private func linkEstablished(_ address: String, attempt: Int, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address], case .connecting(let token, let replies) = device.connection,
            token == attempt
        else { return }
        let pairing = device.pairing
        device.pairing = nil
        let unconnectable = device.remote != nil && !device.profile.isConnectable
        if device.failNextConnect || !device.inRange || device.object == nil || unconnectable {
            device.failNextConnect = false
            device.connection = .disconnected
            run.devices[address] = device
            effects += replies.map { $0.fail(BlueZError.connectionAborted) }
            if let pairing { effects.append(pairing.fail(BlueZError.connectionAborted)) }
            return
        }
        device.connection = .connected(token: token)
        run.devices[address] = device
        if let object = device.object {
            effects.append { object.update(BlueZ.deviceInterface, ["Connected": .bool(true)]) }
        }
        effects += replies.map { $0.succeed() }
        if let pairing {
            completePairing(address, &run, &effects)
            effects.append(pairing.succeed())
        }
        effects.append(
            after(configuration.serviceResolveDelay, run: run.id) { sim, run, effects in
                sim.resolveServices(address, link: token, &run, &effects)
            })
        if let linkLoss = device.profile.linkLossAfter {
            effects.append(
                after(linkLoss, run: run.id) { sim, run, effects in
                    guard case .connected(let current) = run.devices[address]?.connection, current == token else {
                        return
                    }
                    sim.disconnect(address, reason: .timeout, &run, &effects)
                })
        }
    }

    /// Service discovery done: the GATT objects go on the bus, services first, each characteristic
    /// followed by its descriptors (a bonded device's cached objects are there already, and their
    /// notification sessions start again); then UUIDs and ServicesResolved change.
    private func resolveServices(_ address: String, link: Int, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address], case .connected(let token) = device.connection, token == link,
            !device.servicesResolved, let deviceObject = device.object
        else { return }
        if device.gatt == nil {
            let objects = makeGattObjects(device, run: run.id)
            device.gatt = GattSession(objects: Dictionary(uniqueKeysWithValues: objects.map { ($0.path, $0) }))
            let exports = run.exports
            let endpoint = run.endpoint
            effects.append {
                for object in objects { exports.export(object, on: endpoint) }
            }
        }
        device.servicesResolved = true
        let uuidsBefore = deviceUUIDs(device)
        device.resolvedUUIDs = device.layout.primaryServiceUUIDs
        let uuids = deviceUUIDs(device)
        run.devices[address] = device
        resumeNotifySessions(address, &run, &effects)
        var changes: [String: DBusValue] = [:]
        if uuids != uuidsBefore { changes["UUIDs"] = .strings(uuids) }
        effects.append { [changes] in
            if !changes.isEmpty { deviceObject.update(BlueZ.deviceInterface, changes) }
            deviceObject.update(BlueZ.deviceInterface, ["ServicesResolved": .bool(true)])
        }
    }

    /// Ends a device's connection, or the attempt to make one. A link that was up goes down as
    /// bluetoothd reports it: ServicesResolved false, the GATT objects removed (bluetoothd drops the
    /// attribute cache of a device that is not bonded; a bonded device's objects stay, answering
    /// "Not connected"), the Disconnected signal, Connected false.
    func disconnect(_ address: String, reason: DisconnectReason, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address] else { return }
        switch device.connection {
        case .disconnected:
            return
        case .connecting(_, let replies):
            device.connection = .disconnected
            effects += replies.map { $0.fail(BlueZError.connectionCanceled) }
            if let pairing = device.pairing { effects.append(pairing.fail(BlueZError.connectionCanceled)) }
            device.pairing = nil
            run.devices[address] = device
        case .connected:
            device.connection = .disconnected
            if device.servicesResolved, let object = device.object {
                effects.append { object.update(BlueZ.deviceInterface, ["ServicesResolved": .bool(false)]) }
            }
            device.servicesResolved = false
            if var gatt = device.gatt {
                for read in gatt.reads.values { effects += read.replies.map { $0.fail(BlueZError.operationFailed) } }
                gatt.reads = [:]
                gatt.notificationCounts = [:]
                for path in gatt.notify.keys { gatt.notify[path]?.token = nil }
                device.gatt = gatt
            }
            if !device.paired { removeGattObjects(&device, &run, &effects) }
            run.devices[address] = device
            syncRemoteNotify(address, &run, &effects)
            guard let object = device.object else { return }
            effects.append {
                object.emitSignal(
                    interface: BlueZ.deviceInterface, member: "Disconnected",
                    arguments: [.string(reason.rawValue), .string(reason.message)])
                object.update(BlueZ.deviceInterface, ["Connected": .bool(false)])
            }
        }
    }

    /// Takes the GATT objects off the bus (of a device whose link is down); their sessions end.
    func removeGattObjects(_ device: inout DeviceState, _ run: inout RunState, _ effects: inout [Effect]) {
        guard device.gatt != nil else { return }
        device.gatt = nil
        // As bluetoothd unregisters a service: each characteristic's descriptors, the characteristic,
        // and after all of them the service.
        var paths: [DBusObjectPath] = []
        for service in device.layout.services {
            for characteristic in service.characteristics {
                paths += characteristic.descriptors.map(\.path)
                paths.append(characteristic.path)
            }
            paths.append(service.path)
        }
        let exports = run.exports
        effects.append { [paths] in
            for path in paths { exports.remove(path) }
        }
    }
}
