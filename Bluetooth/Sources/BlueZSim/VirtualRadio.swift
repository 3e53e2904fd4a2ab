import Foundation
import RxDBus

extension BlueZSimulation {
    /// The address of the virtual peripheral: the machine next to the simulated adapter whose
    /// bluetoothd the simulation's clients register their applications and advertisements with (one
    /// machine for all of them, as one bluetoothd serves all the programs of a machine). It is the
    /// adapter's address made a static random address (the two top bits set): `C0:1A:7D:DA:71:0A` for
    /// the standard adapter, the same in every run, whichever programs play it.
    public static func virtualPeripheralAddress(adapter: String) -> String {
        var bytes = adapter.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        guard bytes.count == 6 else { return "C0:00:00:00:00:01" }
        bytes[0] |= 0xC0
        return bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The address of this simulation's virtual peripheral.
    public var virtualPeripheralAddress: String {
        Self.virtualPeripheralAddress(adapter: configuration.adapter.address)
    }

    /// The virtual peripheral after the registrations changed: it is heard while any client has an
    /// advertisement (their data merged), and its GATT database is BlueZ's own services followed by
    /// those of every registered application, in the order they were registered, as a connection will
    /// find it (a connected central finds the changes at once: Service Changed).
    func refreshVirtualPeripheral(_ run: inout RunState, _ effects: inout [Effect]) {
        let address = virtualPeripheralAddress
        let advertising = run.peripheral.activeAdvertisements
        guard run.devices[address] != nil || !advertising.isEmpty else { return }
        let services = run.peripheral.registeredServices
        let alias = run.adapter.alias ?? configuration.adapter.name
        // A device that stops advertising keeps what BlueZ last heard of it.
        let heard = advertising.isEmpty ? run.devices[address]?.remote?.advertising ?? [] : advertising
        let profile = Self.virtualProfile(
            address: address, advertising: heard, services: services.map(\.service), alias: alias,
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
        var remote = device.remote ?? RemotePeripheral()
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

    /// A client left the bus: its applications and advertisements are gone (without Release, as
    /// bluetoothd's disconnect watches remove them). If it was the last client playing the virtual
    /// peripheral, a central connected to it loses the link (reason Timeout: the peripheral stopped
    /// answering); otherwise the central loses the services it served.
    func forgetPeripheralClient(_ client: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard run.peripheral.owners.contains(client) else { return }
        run.peripheral.applications.removeAll { $0.owner == client }
        while let index = run.peripheral.advertisements.firstIndex(where: { $0.owner == client }) {
            run.peripheral.advertisements[index].pending = nil
            removeAdvertisement(at: index, &run, &effects)
        }
        let address = virtualPeripheralAddress
        if run.peripheral.owners.isEmpty, let device = run.devices[address], device.isConnected || device.isConnecting {
            disconnect(address, reason: .timeout, &run, &effects)
        }
        refreshVirtualPeripheral(&run, &effects)
        unwatchSignalsIfIdle(client, &run, &effects)
    }
}
