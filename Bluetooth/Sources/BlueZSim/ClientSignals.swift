import RxDBus

/// The signals of a client with registrations, which bluetoothd follows through its proxies of the
/// client's objects: PropertiesChanged of a characteristic's `Value` (notifications), of an
/// advertisement's properties (the advertisement changes), and InterfacesRemoved of a service
/// (bluetoothd takes the service out of its database).
extension BlueZSimulation {
    func watchSignals(of client: String, _ run: inout RunState, _ effects: inout [Effect]) {
        let watches = run.peripheral.watches
        let endpoint = run.endpoint
        let id = run.id
        effects.append { [weak self] in
            watches.insertIfAbsent(client) {
                endpoint.signals(matching: DBusMatchRule(sender: client)).subscribe(onNext: { message in
                    self?.transactRun(id) { run, effects in self?.clientSignal(client, message, &run, &effects) }
                })
            }
        }
    }

    /// Stops following a client that has nothing registered any more.
    func unwatchSignalsIfIdle(_ client: String, _ run: inout RunState, _ effects: inout [Effect]) {
        guard !run.peripheral.owners.contains(client) else { return }
        let watches = run.peripheral.watches
        effects.append { watches.remove(client) }
    }

    private func clientSignal(
        _ client: String, _ message: DBusMessage, _ run: inout RunState, _ effects: inout [Effect]
    ) {
        switch (message.interface, message.member, message.body.first?.string) {
        case (DBusStandard.properties?, "PropertiesChanged", BlueZ.gattCharacteristicInterface?):
            valueChanged(client, message, &run, &effects)
        case (DBusStandard.properties?, "PropertiesChanged", BlueZ.advertisementInterface?):
            advertisementChanged(client, message, &run, &effects)
        case (DBusStandard.objectManager?, "InterfacesRemoved", _):
            serviceRemoved(client, message, &run, &effects)
        default:
            break
        }
    }

    /// An advertisement's properties changed: bluetoothd parses the new values and advertises them
    /// (a value it cannot parse changes nothing); an invalidated property is as if absent.
    private func advertisementChanged(
        _ client: String, _ message: DBusMessage, _ run: inout RunState, _ effects: inout [Effect]
    ) {
        guard let path = message.path, let index = run.peripheral.advertisement(client, path),
            run.peripheral.advertisements[index].data != nil, message.body.count == 3
        else { return }
        var properties = run.peripheral.advertisements[index].properties
        for (name, value) in message.body[1].stringKeyed ?? [:] { properties[name] = value.unwrapped }
        for name in message.body[2].strings ?? [] { properties[name] = nil }
        guard let data = try? AdvertisementData(properties) else { return }
        run.peripheral.advertisements[index].properties = properties
        run.peripheral.advertisements[index].data = data
        refreshVirtualPeripheral(&run, &effects)
    }

    /// A service object of a registered application left (InterfacesRemoved of GattService1 from the
    /// application's object manager): bluetoothd takes the service out of its database, and a
    /// connected central loses its objects; the application stays registered.
    private func serviceRemoved(
        _ client: String, _ message: DBusMessage, _ run: inout RunState, _ effects: inout [Effect]
    ) {
        guard let path = message.body.first?.objectPath,
            message.body.dropFirst().first?.strings?.contains(BlueZ.gattServiceInterface) == true
        else { return }
        var changed = false
        for index in run.peripheral.applications.indices
        where run.peripheral.applications[index].owner == client && run.peripheral.applications[index].isRegistered {
            let before = run.peripheral.applications[index].services.count
            run.peripheral.applications[index].services.removeAll { $0.path == path }
            changed = changed || run.peripheral.applications[index].services.count != before
        }
        if changed { refreshVirtualPeripheral(&run, &effects) }
    }
}
