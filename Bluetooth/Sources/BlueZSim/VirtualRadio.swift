import Foundation
import RxDBus

extension BlueZSimulation {
    /// The address of the virtual peripheral a client of the simulation plays once it registers an
    /// advertisement: a static random address (the two top bits set) made of the FNV-1a hash of the
    /// client's unique name (`:1.42`). Each bus connection is its own peripheral, with its own
    /// address, the same for as long as the connection lasts (a program that starts again is a new
    /// connection, and so a new device, as a phone with a new random address would be).
    public static func virtualPeripheralAddress(of client: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in client.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var bytes = (0..<6).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) }
        bytes[0] |= 0xC0
        return bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The client's virtual peripheral after its registrations changed: it is heard while it has an
    /// advertisement (its data those of the advertisements, merged), and its GATT database is BlueZ's
    /// own services followed by those of the client's applications, as a connection will find it (a
    /// connection in progress keeps the database it found).
    func refreshVirtualPeripheral(_ client: String, _ run: inout RunState, _ effects: inout [Effect]) {
        let address = Self.virtualPeripheralAddress(of: client)
        let advertising = run.peripheral.advertising(client)
        guard run.devices[address] != nil || !advertising.isEmpty else { return }
        let services = run.peripheral.services(of: client)
        let alias = run.adapter.alias ?? configuration.adapter.name
        // A device that stops advertising keeps what BlueZ last heard of it.
        let heard = advertising.isEmpty ? run.devices[address]?.remote?.advertising ?? [] : advertising
        let profile = Self.virtualProfile(
            address: address, advertising: heard, services: services, alias: alias,
            discoverable: run.adapter.discoverable)
        var device = run.devices[address] ?? DeviceState(profile: profile)
        let wasHeard = device.inRange && device.advertisingToken != nil
        let uuidsBefore = deviceUUIDs(device)
        let nameBefore = device.name
        device.profile = profile
        device.name = profile.name
        if let object = device.object {
            // What the next advertisement report tells (ManufacturerData and ServiceData follow with it).
            var changes: [String: DBusValue] = [:]
            if let name = device.name, name != nameBefore {
                changes["Name"] = .string(name)
                if device.alias == nil { changes["Alias"] = .string(name) }
            }
            let uuids = deviceUUIDs(device)
            if uuids != uuidsBefore { changes["UUIDs"] = .strings(uuids) }
            if !changes.isEmpty { effects.append { [changes] in object.update(BlueZ.deviceInterface, changes) } }
        }
        var remote = device.remote ?? RemotePeripheral(owner: client)
        remote.advertising = heard
        device.inRange = !advertising.isEmpty
        if !device.inRange { device.advertisingToken = nil }
        let layout = GattLayout(device: device.path, services: profile.services)
        let attributes = Self.remoteAttributes(layout, services)
        if device.gatt == nil {
            device.layout = layout
            device.values = layout.initialValues
            remote.attributes = attributes
            device.remote = remote
            run.devices[address] = device
        } else {
            device.remote = remote
            run.devices[address] = device
            if device.isConnected && device.servicesResolved {
                changeDatabase(address, layout, attributes, &run, &effects)
            }
        }
        if device.inRange && !wasHeard && run.discovery.isDiscovering { startAdvertising(address, &run, &effects) }
    }

    /// The link to the client's virtual peripheral goes (the client left the bus or took its
    /// application away).
    func peripheralLinkLoss(
        _ client: String, reason: DisconnectReason, _ run: inout RunState, _ effects: inout [Effect]
    ) {
        let address = Self.virtualPeripheralAddress(of: client)
        guard let device = run.devices[address], device.isConnected || device.isConnecting else { return }
        disconnect(address, reason: reason, &run, &effects)
    }

    /// A client left the bus: its applications and advertisements are gone (without Release, as
    /// bluetoothd's disconnect watches remove them), and a central connected to its virtual
    /// peripheral loses the link (reason Timeout: the peripheral stopped answering).
    func forgetPeripheralClient(_ client: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard run.peripheral.owners.contains(client) else { return }
        run.peripheral.applications.removeAll { $0.owner == client }
        while let index = run.peripheral.advertisements.firstIndex(where: { $0.owner == client }) {
            run.peripheral.advertisements[index].pending = nil
            removeAdvertisement(at: index, &run, &effects)
        }
        peripheralLinkLoss(client, reason: .timeout, &run, &effects)
        refreshVirtualPeripheral(client, &run, &effects)
        unwatchSignalsIfIdle(client, &run, &effects)
    }
}
