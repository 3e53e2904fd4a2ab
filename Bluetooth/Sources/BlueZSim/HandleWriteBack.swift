import RxDBus

extension BlueZSimulation {
    /// bluetoothd's `write_handle`: an application object with a `Handle` property of 0 is told the
    /// handle BlueZ gave it (`Properties.Set`, no reply awaited) — the declaration's for a service, the
    /// value's for a characteristic, the descriptor's own. A handle the application asks for (not 0) is
    /// not honoured by the simulation, which numbers attributes in order.
    func writeHandlesBack(_ client: String, _ registered: [RemoteService], _ run: inout RunState) -> [Effect] {
        let alias = run.adapter.alias ?? configuration.adapter.name
        let all = run.peripheral.registeredServices
        let local = Self.localDatabase(name: alias)
        let layout = GattLayout(
            device: BlueZ.devicePath(virtualPeripheralAddress),
            services: local + all.map { Self.serviceProfile($0.service) })
        let mine = Set(registered.map(\.path))
        var writes: [(DBusObjectPath, String, UInt16)] = []
        for ((owner, service), laidOut) in zip(all, layout.services.dropFirst(local.count))
        where owner == client && mine.contains(service.path) {
            if service.handle == 0 { writes.append((service.path, BlueZ.gattServiceInterface, laidOut.handle)) }
            for (characteristic, laidOutCharacteristic) in zip(service.characteristics, laidOut.characteristics) {
                if characteristic.handle == 0 {
                    writes.append(
                        (characteristic.path, BlueZ.gattCharacteristicInterface, laidOutCharacteristic.valueHandle))
                }
                let added = laidOutCharacteristic.descriptors.count - characteristic.descriptors.count
                for (descriptor, laidOutDescriptor) in zip(
                    characteristic.descriptors, laidOutCharacteristic.descriptors.dropFirst(added))
                where descriptor.handle == 0 {
                    writes.append((descriptor.path, BlueZ.gattDescriptorInterface, laidOutDescriptor.handle))
                }
            }
        }
        let endpoint = run.endpoint
        return writes.map { path, interface, handle in
            {
                endpoint.send(
                    .methodCall(
                        destination: client, path: path, interface: DBusStandard.properties, member: "Set",
                        body: [.string(interface), .string("Handle"), .variant(.uint16(handle))]))
            }
        }
    }
}
