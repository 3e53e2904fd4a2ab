import Dispatch
import RxDBus

/// Faults on demand, for trying how a client copes. Each acts on the current run (nothing happens
/// when the simulation is not running) and takes effect at once, on the calling thread; with a
/// virtual-time scheduler, call them from an action scheduled at the virtual time wanted.
extension BlueZSimulation {
    /// The radio off (Powered false, PowerState "off"; discovery ends, every connection drops with
    /// reason Local and its GATT objects go) or on again. The same as a client setting Powered.
    public func setPowered(_ on: Bool) {
        transactRun { run, effects in setPowered(on, &run, &effects) }
    }

    /// The next connection attempt to the device fails (Connect answers org.bluez.Error.Failed
    /// "le-connection-abort-by-local" after the connect delay).
    public func failNextConnect(address: String) {
        transactRun { run, _ in run.devices[address.uppercased()]?.failNextConnect = true }
    }

    /// The link to the device is lost (as mid-notification, when it goes out of range): the
    /// disconnection sequence with reason Timeout, or another reason given.
    public func dropLink(address: String, reason: DisconnectReason = .timeout) {
        transactRun { run, effects in disconnect(address.uppercased(), reason: reason, &run, &effects) }
    }

    /// The device is gone: its link drops (reason Timeout), its object is removed (InterfacesRemoved)
    /// and it is not heard again until ``reappear(address:)``.
    public func vanish(address: String) {
        let address = address.uppercased()
        transactRun { run, effects in
            guard run.devices[address] != nil else { return }
            disconnect(address, reason: .timeout, &run, &effects)
            run.devices[address]?.inRange = false
            run.devices[address]?.advertisingToken = nil
            removeDeviceObject(address, &run, &effects)
        }
    }

    /// A vanished device is back in range (and heard again if discovery is on).
    public func reappear(address: String) {
        let address = address.uppercased()
        transactRun { run, effects in
            guard let device = run.devices[address], !device.inRange else { return }
            run.devices[address]?.inRange = true
            if run.discovery.isDiscovering { startAdvertising(address, &run, &effects) }
        }
    }

    /// Reads of the device's characteristics and descriptors take `delay` to be answered (`nil` or
    /// zero: at once).
    public func setReadDelay(address: String, _ delay: DispatchTimeInterval?) {
        transactRun { run, _ in run.devices[address.uppercased()]?.readDelay = delay }
    }

    /// Powers the adapter off or on, as bluetoothd reports it: PowerState passes through
    /// "on-disabling" / "off-enabling"; powering off ends every discovery session and connection
    /// first, and Discoverable with them.
    func setPowered(_ on: Bool, _ run: inout RunState, _ effects: inout [Effect]) {
        guard run.adapter.powered != on else { return }
        let adapter = run.adapterObject
        let interface = BlueZ.adapterInterface
        if on {
            run.adapter.powered = true
            effects.append {
                adapter.update(interface, ["PowerState": .string("off-enabling")])
                adapter.update(interface, ["Powered": .bool(true), "PowerState": .string("on")])
            }
            return
        }
        effects.append { adapter.update(interface, ["PowerState": .string("on-disabling")]) }
        if run.discovery.isDiscovering {
            run.discovery.endAll()
            endDiscovery(&run, &effects)
        }
        for address in run.devices.keys.sorted() { disconnect(address, reason: .local, &run, &effects) }
        let wasDiscoverable = run.adapter.discoverable
        run.adapter.powered = false
        run.adapter.discoverable = false
        run.adapter.discoverableToken = nil
        effects.append {
            var changes: [String: DBusValue] = ["Powered": .bool(false), "PowerState": .string("off")]
            if wasDiscoverable { changes["Discoverable"] = .bool(false) }
            adapter.update(interface, changes)
        }
    }
}
