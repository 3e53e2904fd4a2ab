import RxDBus
import RxSwift

extension BlueZSimulation {
    /// `/org/bluez/hci0`: Adapter1, and the managers of the peripheral role (GattManager1,
    /// LEAdvertisingManager1), whose registrations make the virtual radio's devices.
    func makeAdapterObject(run id: Int, adapter: AdapterState) -> DBusExportedObject {
        let adapter1 = DBusInterface(
            name: BlueZ.adapterInterface, properties: adapterProperties(adapter, discovering: false),
            writable: [
                "Alias", "Powered", "Connectable", "Discoverable", "DiscoverableTimeout", "Pairable", "PairableTimeout",
            ],
            methods: [
                "StartDiscovery": method(run: id) { sim, run, call, reply, effects in
                    sim.startDiscovery(&run, client: call.sender, reply, &effects)
                },
                "StopDiscovery": method(run: id) { sim, run, call, reply, effects in
                    sim.stopDiscovery(&run, client: call.sender, reply, &effects)
                },
                "SetDiscoveryFilter": method(in: "a{sv}", run: id) { sim, run, call, reply, effects in
                    sim.setDiscoveryFilter(&run, client: call.sender, call.arguments, reply, &effects)
                },
                "GetDiscoveryFilters": method(out: "as", run: id) { _, _, _, reply, effects in
                    effects.append(reply.succeed([.strings(DiscoveryFilter.keys)]))
                },
                "RemoveDevice": method(in: "o", run: id) { sim, run, call, reply, effects in
                    sim.removeDevice(&run, call.arguments, reply, &effects)
                },
            ],
            willSet: { [weak self] name, value in try self?.setAdapterProperty(name, value, run: id) })
        let gattManager = DBusInterface(
            name: BlueZ.gattManagerInterface,
            methods: [
                "RegisterApplication": method(in: "oa{sv}", run: id) { sim, run, call, reply, effects in
                    sim.registerApplication(&run, client: call.sender, call.arguments, reply, &effects)
                },
                "UnregisterApplication": method(in: "o", run: id) { sim, run, call, reply, effects in
                    sim.unregisterApplication(&run, client: call.sender, call.arguments, reply, &effects)
                },
            ])
        let advertisingManager = DBusInterface(
            name: BlueZ.advertisingManagerInterface,
            properties: [
                "ActiveInstances": .byte(0),
                "SupportedInstances": .byte(BlueZ.advertisingInstances),
                "SupportedIncludes": .strings(["tx-power", "appearance", "local-name"]),
                "SupportedSecondaryChannels": .strings(["1M", "2M", "Coded"]),
                "SupportedCapabilities": .vardict([
                    "MaxAdvLen": .byte(251), "MaxScnRspLen": .byte(251), "MinTxPower": .int16(-34),
                    "MaxTxPower": .int16(7),
                ]),
                "SupportedFeatures": .strings(["CanSetTxPower", "HardwareOffload"]),
            ],
            methods: [
                "RegisterAdvertisement": method(in: "oa{sv}", run: id) { sim, run, call, reply, effects in
                    sim.registerAdvertisement(&run, client: call.sender, call.arguments, reply, &effects)
                },
                "UnregisterAdvertisement": method(in: "o", run: id) { sim, run, call, reply, effects in
                    sim.unregisterAdvertisement(&run, client: call.sender, call.arguments, reply, &effects)
                },
            ])
        return DBusExportedObject(path: BlueZ.adapterPath, interfaces: [adapter1, gattManager, advertisingManager])
    }

    /// Adapter1's properties for `adapter`, all of them (for the adapter object's creation).
    func adapterProperties(_ adapter: AdapterState, discovering: Bool) -> [String: DBusValue] {
        let profile = configuration.adapter
        return [
            "Address": .string(profile.address),
            "AddressType": .string(profile.addressType.rawValue),
            "Name": .string(profile.name),
            "Alias": .string(adapter.alias ?? profile.name),
            "Class": .uint32(profile.deviceClass),
            "Connectable": .bool(adapter.connectable),
            "Powered": .bool(adapter.powered),
            "PowerState": .string(adapter.powered ? "on" : "off"),
            "Discoverable": .bool(adapter.discoverable),
            "DiscoverableTimeout": .uint32(adapter.discoverableTimeout),
            "Pairable": .bool(adapter.pairable),
            "PairableTimeout": .uint32(adapter.pairableTimeout),
            "Discovering": .bool(discovering),
            "UUIDs": .strings(profile.uuids.map(BluetoothUUID.canonical).sorted()),
            "Modalias": .string(profile.modalias),
            "Roles": .strings(profile.roles),
            "Manufacturer": .uint16(profile.manufacturer),
            "Version": .byte(profile.version),
        ]
    }

    /// A peer's `Set` of an adapter property: checked and carried out here, before the object stores
    /// the value (which then changes nothing, as the update below has stored it already).
    private func setAdapterProperty(_ name: String, _ value: DBusValue, run id: Int) throws {
        var failure: DBusError?
        transactRun(id) { run, effects in
            let object = run.adapterObject
            switch (name, value) {
            case ("Powered", .bool(let on)):
                setPowered(on, &run, &effects)
            case ("Alias", .string(let alias)):
                run.adapter.alias = alias.isEmpty ? nil : alias
                if alias.isEmpty {
                    // An empty alias goes back to the system name; the object stores "" after this
                    // returns, so the name is put back on the scheduler's next turn.
                    let name = configuration.adapter.name
                    effects.append { [scheduler] in
                        _ = scheduler.schedule(()) { _ in
                            object.update(BlueZ.adapterInterface, ["Alias": .string(name)])
                            return Disposables.create()
                        }
                    }
                }
            case ("Connectable", .bool(let on)):
                run.adapter.connectable = on
                if !on && run.adapter.discoverable {
                    run.adapter.discoverable = false
                    effects.append { object.update(BlueZ.adapterInterface, ["Discoverable": .bool(false)]) }
                }
            case ("Discoverable", .bool(let on)):
                guard run.adapter.powered else {
                    failure = BlueZError.notPowered
                    return
                }
                setDiscoverable(on, &run, &effects)
            case ("DiscoverableTimeout", .uint32(let seconds)):
                run.adapter.discoverableTimeout = seconds
            case ("Pairable", .bool(let on)):
                run.adapter.pairable = on
            case ("PairableTimeout", .uint32(let seconds)):
                run.adapter.pairableTimeout = seconds
            default:
                failure = BlueZError.invalidArguments
            }
        }
        if let failure { throw failure }
    }

    /// Discoverable, and its end after DiscoverableTimeout seconds (zero: no end).
    func setDiscoverable(_ on: Bool, _ run: inout RunState, _ effects: inout [Effect]) {
        run.adapter.discoverable = on
        run.adapter.discoverableToken = nil
        let object = run.adapterObject
        effects.append { object.update(BlueZ.adapterInterface, ["Discoverable": .bool(on)]) }
        guard on, run.adapter.discoverableTimeout > 0 else { return }
        let token = run.token()
        run.adapter.discoverableToken = token
        effects.append(
            after(.seconds(Int(run.adapter.discoverableTimeout)), run: run.id) { sim, run, effects in
                guard run.adapter.discoverableToken == token else { return }
                sim.setDiscoverable(false, &run, &effects)
            })
    }
}
