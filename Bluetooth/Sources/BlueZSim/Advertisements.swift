import RxDBus

extension BlueZ {
    /// The interface of a client's advertisement object.
    public static let advertisementInterface = "org.bluez.LEAdvertisement1"
    /// How many advertisements the simulated controller takes at once (SupportedInstances when none
    /// is registered).
    static let advertisingInstances: UInt8 = 4
}

extension BlueZSimulation {
    /// LEAdvertisingManager1.RegisterAdvertisement(o path, a{sv} options), as bluetoothd answers it:
    /// InvalidArguments, AlreadyExists (the same client and path), NotPermitted "Maximum
    /// advertisements reached" at once; otherwise reads the advertisement's properties
    /// (`Properties.GetAll`) and answers when they are read: success, or Failed "Failed to parse
    /// advertisement.". An object that cannot be read leaves the call unanswered, as bluetoothd waits
    /// for the object to appear.
    func registerAdvertisement(
        _ run: inout RunState, client: String, _ arguments: [DBusValue], _ reply: Reply, _ effects: inout [Effect]
    ) {
        guard let path = arguments.first?.objectPath else {
            return effects.append(reply.fail(BlueZError.invalidArguments))
        }
        guard run.peripheral.advertisement(client, path) == nil else {
            return effects.append(reply.fail(BlueZError.alreadyExists))
        }
        guard arguments.count == 2, arguments[1].dictionaryEntries != nil else {
            return effects.append(reply.fail(BlueZError.invalidArguments))
        }
        let used = Set(run.peripheral.advertisements.map(\.instance))
        guard let instance = (1...BlueZ.advertisingInstances).first(where: { !used.contains($0) }) else {
            return effects.append(reply.fail(BlueZError.notPermitted("Maximum advertisements reached")))
        }
        run.peripheral.advertisements.append(
            RegisteredAdvertisement(owner: client, path: path, instance: instance, pending: reply))
        updateInstances(&run, &effects)
        watchSignals(of: client, &run, &effects)
        let endpoint = run.endpoint
        let id = run.id
        effects.append { [weak self] in
            _ = endpoint.call(
                destination: client, path: path, interface: DBusStandard.properties, member: "GetAll",
                arguments: [.string(BlueZ.advertisementInterface)]
            ).subscribe(
                onSuccess: { body in
                    self?.transactRun(id) { run, effects in
                        self?.advertisementRead(client, path, body.first?.stringKeyed, &run, &effects)
                    }
                },
                // No object: bluetoothd's proxy never appears, and the registration waits.
                onFailure: { _ in })
        }
    }

    private func advertisementRead(
        _ client: String, _ path: DBusObjectPath, _ properties: [String: DBusValue]?, _ run: inout RunState,
        _ effects: inout [Effect]
    ) {
        guard let index = run.peripheral.advertisement(client, path),
            let reply = run.peripheral.advertisements[index].pending
        else { return }
        let unwrapped = properties?.mapValues(\.unwrapped) ?? [:]
        do throws(DBusError) {
            let data = try AdvertisementData(unwrapped)
            var advertisement = run.peripheral.advertisements[index]
            advertisement.pending = nil
            advertisement.data = data
            advertisement.properties = unwrapped
            if data.timeout > 0 {
                let token = run.token()
                advertisement.timeoutToken = token
                effects.append(
                    after(.seconds(Int(data.timeout)), run: run.id) { sim, run, effects in
                        guard let index = run.peripheral.advertisement(client, path),
                            run.peripheral.advertisements[index].timeoutToken == token
                        else { return }
                        effects.append(sim.release(client, path, run))
                        sim.removeAdvertisement(at: index, &run, &effects)
                    })
            }
            run.peripheral.advertisements[index] = advertisement
            if unwrapped["Instance"] != nil {
                // bluetoothd tells the object its instance when it has the property.
                let endpoint = run.endpoint
                let instance = advertisement.instance
                effects.append {
                    _ = endpoint.call(
                        destination: client, path: path, interface: DBusStandard.properties, member: "Set",
                        arguments: [
                            .string(BlueZ.advertisementInterface), .string("Instance"), .variant(.byte(instance)),
                        ]
                    ).subscribe { _ in }
                }
            }
            effects.append(reply.succeed())
            refreshVirtualPeripheral(&run, &effects)
        } catch {
            run.peripheral.advertisements.remove(at: index)
            updateInstances(&run, &effects)
            effects.append(reply.fail(error))
            unwatchSignalsIfIdle(client, &run, &effects)
        }
    }

    /// LEAdvertisingManager1.UnregisterAdvertisement(o path): DoesNotExist unless the caller registered
    /// `path`. bluetoothd does not call Release here; a registration still being read is answered
    /// Failed "Failed to complete registration".
    func unregisterAdvertisement(
        _ run: inout RunState, client: String, _ arguments: [DBusValue], _ reply: Reply, _ effects: inout [Effect]
    ) {
        guard arguments.count == 1, let path = arguments[0].objectPath else {
            return effects.append(reply.fail(BlueZError.invalidArguments))
        }
        guard let index = run.peripheral.advertisement(client, path) else {
            return effects.append(reply.fail(BlueZError.doesNotExist))
        }
        removeAdvertisement(at: index, &run, &effects)
        effects.append(reply.succeed())
    }

    /// Takes an advertisement away: the instance is free again, and the virtual peripheral stops
    /// being heard if it was the last.
    func removeAdvertisement(at index: Int, _ run: inout RunState, _ effects: inout [Effect]) {
        let advertisement = run.peripheral.advertisements.remove(at: index)
        if let pending = advertisement.pending {
            effects.append(pending.fail(BlueZError.failed("Failed to complete registration")))
        }
        updateInstances(&run, &effects)
        refreshVirtualPeripheral(&run, &effects)
        unwatchSignalsIfIdle(advertisement.owner, &run, &effects)
    }

    /// `Release()` of an advertisement (a no-reply call, as bluetoothd sends it).
    func release(_ client: String, _ path: DBusObjectPath, _ run: RunState) -> Effect {
        let endpoint = run.endpoint
        return {
            endpoint.send(
                .methodCall(
                    destination: client, path: path, interface: BlueZ.advertisementInterface, member: "Release",
                    body: []))
        }
    }

    /// The run ends (bluetoothd stops, the adapter goes): every advertisement is released.
    func releaseAdvertisements(_ run: RunState) -> [Effect] {
        run.peripheral.advertisements.filter { $0.pending == nil }.map { release($0.owner, $0.path, run) }
    }

    /// ActiveInstances and SupportedInstances after a change (bluetoothd counts registrations in
    /// progress too).
    private func updateInstances(_ run: inout RunState, _ effects: inout [Effect]) {
        let active = UInt8(run.peripheral.advertisements.count)
        let adapter = run.adapterObject
        effects.append {
            adapter.update(
                BlueZ.advertisingManagerInterface,
                ["ActiveInstances": .byte(active), "SupportedInstances": .byte(BlueZ.advertisingInstances - active)])
        }
    }
}
