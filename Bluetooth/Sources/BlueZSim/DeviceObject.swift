import RxDBus
import RxSwift

extension BlueZSimulation {
    /// A device's object: Device1 with the properties bluetoothd shows for what it has learnt (the
    /// optional ones only when known), its methods and its Disconnected signal.
    func makeDeviceObject(_ device: DeviceState, run id: Int) -> DBusExportedObject {
        let address = device.profile.address
        let device1 = DBusInterface(
            name: BlueZ.deviceInterface, properties: deviceProperties(device),
            writable: ["Alias", "Trusted", "Blocked"],
            methods: [
                "Connect": method(run: id) { sim, run, _, reply, effects in
                    sim.connect(address, reply, &run, &effects)
                },
                "Disconnect": method(run: id) { sim, run, _, reply, effects in
                    sim.disconnectCall(address, reply, &run, &effects)
                },
                "Pair": method(run: id) { sim, run, _, reply, effects in
                    sim.pair(address, reply, &run, &effects)
                },
                "CancelPairing": method(run: id) { sim, run, _, reply, effects in
                    sim.cancelPairing(address, reply, &run, &effects)
                },
                // Profiles are BR/EDR's; the simulated devices are LE only.
                "ConnectProfile": method(in: "s", run: id) { _, _, _, reply, effects in
                    effects.append(reply.fail(BlueZError.notSupported))
                },
                "DisconnectProfile": method(in: "s", run: id) { _, _, _, reply, effects in
                    effects.append(reply.fail(BlueZError.notSupported))
                },
            ],
            signals: ["Disconnected": "ss"],
            willSet: { [weak self] name, value in self?.setDeviceProperty(address, name, value, run: id) })
        return DBusExportedObject(path: device.path, interfaces: [device1])
    }

    /// Device1's properties as they are now.
    func deviceProperties(_ device: DeviceState) -> [String: DBusValue] {
        let profile = device.profile
        var properties: [String: DBusValue] = [
            "Address": .string(profile.address),
            "AddressType": .string(profile.addressType.rawValue),
            "Alias": .string(device.alias ?? device.name ?? profile.address.replacingColons(with: "-")),
            "Paired": .bool(device.paired),
            "Bonded": .bool(device.paired),
            "Trusted": .bool(device.trusted),
            "Blocked": .bool(device.blocked),
            "LegacyPairing": .bool(profile.legacyPairing),
            "CablePairing": .bool(false),
            "Connected": .bool(device.isConnected),
            "UUIDs": .strings(deviceUUIDs(device)),
            "Adapter": .objectPath(BlueZ.adapterPath),
            "ServicesResolved": .bool(device.servicesResolved),
        ]
        if let name = device.name { properties["Name"] = .string(name) }
        if let deviceClass = profile.deviceClass { properties["Class"] = .uint32(deviceClass) }
        if let appearance = profile.appearance {
            properties["Appearance"] = .uint16(appearance)
            if let icon = Self.icon(forAppearance: appearance) { properties["Icon"] = .string(icon) }
        }
        if let rssi = device.rssi { properties["RSSI"] = .int16(rssi) }
        if device.txPowerShown, let txPower = profile.txPower { properties["TxPower"] = .int16(txPower) }
        if !device.advertised.manufacturerData.isEmpty {
            properties["ManufacturerData"] = Self.manufacturerData(device.advertised.manufacturerData)
        }
        if !device.advertised.serviceData.isEmpty {
            properties["ServiceData"] = Self.serviceData(device.advertised.serviceData)
        }
        if !profile.advertisingFlags.isEmpty { properties["AdvertisingFlags"] = .bytes(profile.advertisingFlags) }
        return properties
    }

    /// What the device advertised, and once its services were resolved the primary services found;
    /// sorted, as bluetoothd keeps them.
    func deviceUUIDs(_ device: DeviceState) -> [String] {
        Set(device.profile.advertisedServices.map(BluetoothUUID.canonical) + device.resolvedUUIDs).sorted()
    }

    /// `a{qv}`, each variant holding the data as `ay`.
    static func manufacturerData(_ data: [UInt16: [UInt8]]) -> DBusValue {
        .dictionary(data.mapValues { .variant(.bytes($0)) }, keySignature: "q", valueSignature: "v") { .uint16($0) }
    }

    /// `a{sv}` by 128-bit UUID, each variant holding the data as `ay`.
    static func serviceData(_ data: [String: [UInt8]]) -> DBusValue {
        var entries: [String: DBusValue] = [:]
        for (uuid, bytes) in data { entries[BluetoothUUID.canonical(uuid)] = .variant(.bytes(bytes)) }
        return .dictionary(entries, keySignature: "s", valueSignature: "v") { .string($0) }
    }

    /// The icon bluetoothd derives from an LE Appearance (its category, and the HID subtypes); most
    /// categories have none.
    static func icon(forAppearance appearance: UInt16) -> String? {
        switch (appearance & 0xFFC0) >> 6 {
        case 0x00: return "unknown"
        case 0x01: return "phone"
        case 0x02: return "computer"
        case 0x05: return "video-display"
        case 0x0A: return "multimedia-player"
        case 0x0B: return "scanner"
        case 0x0F:
            switch appearance & 0x3F {
            case 0x01: return "input-keyboard"
            case 0x02: return "input-mouse"
            case 0x03, 0x04: return "input-gaming"
            case 0x05: return "input-tablet"
            case 0x08: return "scanner"
            default: return nil
            }
        default: return nil
        }
    }

    /// A peer's `Set` of Alias, Trusted or Blocked.
    private func setDeviceProperty(_ address: String, _ name: String, _ value: DBusValue, run id: Int) {
        transactRun(id) { run, effects in
            guard var device = run.devices[address] else { return }
            switch (name, value) {
            case ("Alias", .string(let alias)):
                device.alias = alias.isEmpty ? nil : alias
                if alias.isEmpty, let object = device.object {
                    // An empty alias goes back to the remote name; the object stores "" after this
                    // returns, so the name is put back on the scheduler's next turn.
                    let fallback = device.name ?? address.replacingColons(with: "-")
                    effects.append { [scheduler] in
                        _ = scheduler.schedule(()) { _ in
                            object.update(BlueZ.deviceInterface, ["Alias": .string(fallback)])
                            return Disposables.create()
                        }
                    }
                }
            case ("Trusted", .bool(let trusted)):
                device.trusted = trusted
                if trusted { device.temporary = false }
            case ("Blocked", .bool(let blocked)):
                device.blocked = blocked
            default:
                break
            }
            run.devices[address] = device
            if case ("Blocked", .bool(true)) = (name, value), device.isConnected || device.isConnecting {
                // Blocking a device drops its connection.
                disconnect(address, reason: .local, &run, &effects)
            }
        }
    }
}

extension String {
    func replacingColons(with separator: String) -> String {
        split(separator: ":", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
