import Dispatch
import Foundation
import RxDBus

extension BlueZSimulation {
    /// StartNotify: a session for the calling client (a client that has one is answered success
    /// again, as bluetoothd does); the first session turns Notifying on and the peripheral starts
    /// sending. On a bonded device whose link is down the session waits for the next connection.
    func startNotify(
        _ path: DBusObjectPath, _ address: String, client: String, _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard var gatt = run.devices[address]?.gatt,
            let characteristic = run.devices[address]?.layout.characteristics[path]
        else { return effects.append(reply.fail(BlueZError.notConnected)) }
        guard characteristic.canNotify else { return effects.append(reply.fail(BlueZError.notSupported)) }
        if var session = gatt.notify[path] {
            if !session.clients.contains(client) { session.clients.append(client) }
            gatt.notify[path] = session
            run.devices[address]?.gatt = gatt
        } else {
            gatt.notify[path] = NotifySession(clients: [client])
            run.devices[address]?.gatt = gatt
            if run.devices[address]?.servicesResolved == true { registerNotifications(path, address, &run, &effects) }
        }
        effects.append(reply.succeed())
    }

    /// The link is up and services resolved: the sessions waiting for it start.
    func resumeNotifySessions(_ address: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard let notify = run.devices[address]?.gatt?.notify else { return }
        for path in notify.keys.sorted() where notify[path]?.token == nil {
            registerNotifications(path, address, &run, &effects)
        }
    }

    /// Turns a session's notifications on: Notifying (unless on already) and the peripheral's timer.
    private func registerNotifications(
        _ path: DBusObjectPath, _ address: String, _ run: inout RunState, _ effects: inout [Effect]
    ) {
        guard var gatt = run.devices[address]?.gatt, var session = gatt.notify[path],
            let characteristic = run.devices[address]?.layout.characteristics[path]
        else { return }
        let token = run.token()
        session.token = token
        if !session.isNotifying, let object = gatt.objects[path] {
            effects.append { object.update(BlueZ.gattCharacteristicInterface, ["Notifying": .bool(true)]) }
        }
        session.isNotifying = true
        gatt.notify[path] = session
        run.devices[address]?.gatt = gatt
        if let notifications = characteristic.profile.notifications {
            let origin = scheduler.now
            effects.append(
                notification(
                    path, address, token: token, every: notifications.period, from: origin, number: 1, run: run.id))
        }
    }

    /// StopNotify: ends the calling client's session; the last one turns Notifying off.
    func stopNotify(
        _ path: DBusObjectPath, _ address: String, client: String, _ reply: Reply, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard run.devices[address]?.gatt?.notify[path]?.clients.contains(client) == true else {
            return effects.append(reply.fail(BlueZError.failed("No notify session started")))
        }
        endNotifySession(path, address, client: client, &run, &effects)
        effects.append(reply.succeed())
    }

    /// A client left the bus: its notification sessions end.
    func forgetNotifyClient(_ client: String, _ run: inout RunState, _ effects: inout [Effect]) {
        for address in run.devices.keys.sorted() {
            guard let notify = run.devices[address]?.gatt?.notify else { continue }
            for (path, session) in notify.sorted(by: { $0.key < $1.key }) where session.clients.contains(client) {
                endNotifySession(path, address, client: client, &run, &effects)
            }
        }
    }

    private func endNotifySession(
        _ path: DBusObjectPath, _ address: String, client: String, _ run: inout RunState, _ effects: inout [Effect]
    ) {
        guard var device = run.devices[address], var gatt = device.gatt, var session = gatt.notify[path] else { return }
        session.clients.removeAll { $0 == client }
        if session.clients.isEmpty {
            gatt.notify[path] = nil
            if session.isNotifying, let object = gatt.objects[path] {
                effects.append { object.update(BlueZ.gattCharacteristicInterface, ["Notifying": .bool(false)]) }
            }
        } else {
            gatt.notify[path] = session
        }
        device.gatt = gatt
        run.devices[address] = device
    }

    /// The session's `number`th notification (or indication), at `origin` + `number` × `period`, while
    /// the session `token` lasts: the value becomes the peripheral's and the cached Value, with a
    /// PropertiesChanged for every notification. Each is due at its own multiple of the period from
    /// the session's start, so the rate holds however long each takes to send (a 1 ms notifier sends
    /// 1 000 a second, not one per millisecond plus the time to send it).
    private func notification(
        _ path: DBusObjectPath, _ address: String, token: Int, every period: DispatchTimeInterval, from origin: Date,
        number sequence: Int, run id: Int
    ) -> Effect {
        // At least a microsecond: one behind its time goes through the scheduler too, not recursively.
        let due = origin.addingTimeInterval(period.seconds * Double(sequence))
        let delay = DispatchTimeInterval.microseconds(
            max(1, Int((due.timeIntervalSince(scheduler.now) * 1e6).rounded())))
        return after(delay, run: id) { sim, run, effects in
            guard var device = run.devices[address], var gatt = device.gatt, gatt.notify[path]?.token == token,
                let characteristic = device.layout.characteristics[path],
                let notifications = characteristic.profile.notifications
            else { return }
            let number = (gatt.notificationCounts[path] ?? 0) + 1
            gatt.notificationCounts[path] = number
            // A notification carries at most MTU - 3 bytes.
            let value = Array(notifications.value(number).prefix(Int(device.profile.mtu) - 3))
            device.values[characteristic.valueHandle] = value
            device.gatt = gatt
            run.devices[address] = device
            if let object = gatt.objects[path] {
                effects.append(Self.signalValue(value, of: object, interface: BlueZ.gattCharacteristicInterface))
            }
            effects.append(
                sim.notification(
                    path, address, token: token, every: period, from: origin, number: sequence + 1, run: id))
        }
    }
}
