import Dispatch
import RxDBus

extension BlueZSimulation {
    /// Starts hearing the advertisements of a device in range: the first after its `firstSeenAfter`,
    /// then one every `advertisingInterval` while discovery goes on.
    func startAdvertising(_ address: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard let device = run.devices[address], device.inRange else { return }
        let token = run.token()
        run.devices[address]?.advertisingToken = token
        effects.append(advertisement(of: address, token: token, after: device.profile.firstSeenAfter, run: run.id))
    }

    private func advertisement(of address: String, token: Int, after delay: DispatchTimeInterval, run id: Int)
        -> Effect
    {
        after(delay, run: id) { sim, run, effects in
            guard let device = run.devices[address], device.advertisingToken == token else { return }
            sim.receiveAdvertisement(address, &run, &effects)
            effects.append(
                sim.advertisement(of: address, token: token, after: device.profile.advertisingInterval, run: run.id))
        }
    }

    /// One advertisement report: the device object appears (InterfacesAdded) on the first one a
    /// session's filter admits; later ones update RSSI (by BlueZ's delta threshold), TxPower and the
    /// advertised data. A device that is connected does not advertise.
    private func receiveAdvertisement(_ address: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address], device.inRange, !device.isConnected, !device.isConnecting else {
            return
        }
        let profile = device.profile
        device.reports += 1
        let rssi = profile.rssi(atReport: device.reports)
        let data = profile.advertisedData(device.reports)
        let admitted = run.discovery.admits(
            DiscoveryFilter.Advertisement(
                address: profile.address, name: device.name,
                uuids: profile.advertisedServices.map(BluetoothUUID.canonical), rssi: rssi, txPower: profile.txPower))
        guard admitted else {
            run.devices[address] = device
            return
        }
        if let object = device.object {
            var changes: [String: DBusValue] = [:]
            if let last = device.rssi, abs(Int(last) - Int(rssi)) < Int(run.discovery.rssiThreshold) {
                // Below the threshold: BlueZ keeps the last value.
            } else {
                device.rssi = rssi
                changes["RSSI"] = .int16(rssi)
            }
            if let txPower = profile.txPower, !device.txPowerShown {
                device.txPowerShown = true
                changes["TxPower"] = .int16(txPower)
            }
            if data.manufacturerData != device.advertised.manufacturerData {
                changes["ManufacturerData"] = Self.manufacturerData(data.manufacturerData)
            }
            if data.serviceData != device.advertised.serviceData {
                changes["ServiceData"] = Self.serviceData(data.serviceData)
            }
            device.advertised = data
            if !changes.isEmpty { effects.append { [changes] in object.update(BlueZ.deviceInterface, changes) } }
        } else {
            device.rssi = rssi
            device.txPowerShown = profile.txPower != nil
            device.advertised = data
            let object = makeDeviceObject(device, run: run.id)
            device.object = object
            let exports = run.exports
            let endpoint = run.endpoint
            effects.append { exports.export(object, on: endpoint) }
            if let cycle = profile.nameCycle, cycle.names.count > 1 {
                let token = run.token()
                device.nameToken = token
                effects.append(nameChange(of: address, token: token, every: cycle.interval, run: run.id))
            }
        }
        if device.temporary {
            let token = run.token()
            device.removalToken = token
            effects.append(
                after(configuration.temporaryDeviceTimeout, run: run.id) { sim, run, effects in
                    guard let device = run.devices[address], device.removalToken == token, device.temporary,
                        !device.isConnected, !device.isConnecting
                    else { return }
                    sim.removeDeviceObject(address, &run, &effects)
                })
        }
        run.devices[address] = device
    }

    /// Takes a device's object off the bus (InterfacesRemoved) and forgets what BlueZ knew of it:
    /// found again, it is a new temporary device.
    func removeDeviceObject(_ address: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard var device = run.devices[address], device.object != nil else { return }
        if device.gatt != nil { removeGattObjects(&device, &run, &effects) }
        device.object = nil
        device.temporary = true
        device.paired = false
        device.trusted = false
        device.blocked = false
        device.alias = nil
        device.rssi = nil
        device.txPowerShown = false
        device.advertised = DeviceProfile.AdvertisedData()
        device.removalToken = nil
        device.nameToken = nil
        device.servicesResolved = false
        device.resolvedUUIDs = []
        run.devices[address] = device
        let exports = run.exports
        let path = device.path
        effects.append { exports.remove(path) }
    }

    /// A device whose name changes: every interval of its cycle, the next name (and Alias, unless a
    /// client set one), while BlueZ has its object; the cycle stops when the object goes, so that a
    /// virtual-time scheduler runs out of work when nothing is going on.
    private func nameChange(of address: String, token: Int, every interval: DispatchTimeInterval, run id: Int)
        -> Effect
    {
        after(interval, run: id) { sim, run, effects in
            guard var device = run.devices[address], device.nameToken == token, let object = device.object,
                let names = device.profile.nameCycle?.names
            else { return }
            device.nameIndex = (device.nameIndex + 1) % names.count
            let name = names[device.nameIndex]
            device.name = name
            var changes: [String: DBusValue] = ["Name": .string(name)]
            if device.alias == nil { changes["Alias"] = .string(name) }
            effects.append { [changes] in object.update(BlueZ.deviceInterface, changes) }
            run.devices[address] = device
            effects.append(sim.nameChange(of: address, token: token, every: interval, run: id))
        }
    }
}

extension DeviceProfile {
    /// The RSSI of the device's `report`-th advertisement in a discovery: it walks 10 dB steps
    /// around the profile's RSSI (as if carried away and back) with ±1 dB of noise, so that each
    /// report moves past BlueZ's 8 dB reporting threshold and a client sees RSSI change with every
    /// advertisement. The same for every run.
    public func rssi(atReport report: Int) -> Int16 {
        let walk: [Int] = [0, -10, -20, -10, 0, 10]
        let step = walk[(max(report, 1) - 1) % walk.count]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in address.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash = (hash ^ UInt64(report)) &* 0x100_0000_01b3
        let noise = Int(hash % 3) - 1
        return Int16(clamping: Int(rssi) + step + noise)
    }
}
