import RxDBus

/// A virtual peripheral's profile and GATT database, and their changes while a central is connected.
extension BlueZSimulation {
    /// The profile of the virtual peripheral.
    static func virtualProfile(
        address: String, advertising: [AdvertisementData], services: [RemoteService], alias: String,
        discoverable: Bool
    ) -> DeviceProfile {
        let includes = advertising.reduce(into: Set<String>()) { $0.formUnion($1.includes) }
        let name = advertising.lazy.compactMap(\.localName).first ?? (includes.contains("local-name") ? alias : nil)
        let appearance =
            advertising.lazy.compactMap(\.appearance).first ?? (includes.contains("appearance") ? 0 : nil)
        let txPower = includes.contains("tx-power") ? advertising.lazy.compactMap(\.txPower).first ?? 0 : nil
        var uuids: [String] = []
        var manufacturerData: [UInt16: [UInt8]] = [:]
        var serviceData: [String: [UInt8]] = [:]
        for data in advertising {
            uuids += data.serviceUUIDs.filter { !uuids.contains($0) }
            manufacturerData.merge(data.manufacturerData) { first, _ in first }
            serviceData.merge(data.serviceData) { first, _ in first }
        }
        // The Flags AD a dual-mode controller adds: LE General Discoverable, when discoverable.
        let isDiscoverable = advertising.contains { $0.discoverable ?? ($0.isConnectable && discoverable) }
        return DeviceProfile(
            address: address, addressType: .random, name: name, appearance: appearance, txPower: txPower, rssi: -50,
            advertisedServices: uuids, manufacturerData: manufacturerData, serviceData: serviceData,
            advertisingFlags: isDiscoverable ? [0x02] : [], isConnectable: advertising.contains(where: \.isConnectable),
            mtu: 517, services: localDatabase(name: alias) + services.map(serviceProfile))
    }

    /// The services bluetoothd serves itself before any application's: Generic Access (0x0001–0x0005),
    /// Generic Attribute (0x0006–0x000f) and Device Information with the PnP ID (0x0010–0x0012).
    static func localDatabase(name: String) -> [ServiceProfile] {
        [
            ServiceProfile(
                uuid: "1800",
                characteristics: [
                    CharacteristicProfile(uuid: "2A00", flags: [.read], value: Array(name.utf8), maxLength: 248),
                    CharacteristicProfile(uuid: "2A01", flags: [.read], value: [0, 0], maxLength: 2),
                ]),
            ServiceProfile(
                uuid: "1801",
                characteristics: [
                    CharacteristicProfile(uuid: "2A05", flags: [.indicate], value: [], maxLength: 4),
                    CharacteristicProfile(uuid: "2B29", flags: [.read, .write], value: [0], maxLength: 1),
                    CharacteristicProfile(uuid: "2B2A", flags: [.read], value: Array(repeating: 0, count: 16)),
                    CharacteristicProfile(uuid: "2B3A", flags: [.read], value: [1], maxLength: 1),
                ]),
            ServiceProfile(
                uuid: "180A",
                characteristics: [
                    CharacteristicProfile(
                        uuid: "2A50", flags: [.read], value: [0x02, 0x6B, 0x1D, 0x46, 0x02, 0x48, 0x05], maxLength: 7)
                ]),
        ]
    }

    /// An application's service as the central finds it: the characteristics' properties, the
    /// Client Characteristic Configuration descriptor (added by the layout) and Characteristic Extended
    /// Properties descriptor that bluetoothd adds, then the application's descriptors.
    static func serviceProfile(_ service: RemoteService) -> ServiceProfile {
        ServiceProfile(
            uuid: service.uuid, isPrimary: service.isPrimary,
            characteristics: service.characteristics.map { characteristic in
                var descriptors: [DescriptorProfile] = []
                if let extended = CharacteristicFlags.extendedProperties(characteristic.flags) {
                    descriptors.append(DescriptorProfile(uuid: "2900", flags: [.read], value: extended, maxLength: 2))
                }
                descriptors += characteristic.descriptors.map {
                    DescriptorProfile(uuid: $0.uuid, flags: DescriptorFlags.central($0.flags))
                }
                return CharacteristicProfile(
                    uuid: characteristic.uuid, flags: CharacteristicFlags.central(characteristic.flags),
                    descriptors: descriptors)
            })
    }

    /// Which application object stands behind each central-side attribute of `layout` (whose last
    /// services are `services`).
    static func remoteAttributes(_ layout: GattLayout, _ services: [(owner: String, service: RemoteService)])
        -> [DBusObjectPath: RemoteAttribute]
    {
        var attributes: [DBusObjectPath: RemoteAttribute] = [:]
        let local = layout.services.count - services.count
        for ((owner, service), laidOut) in zip(services, layout.services.dropFirst(local)) {
            for (characteristic, laidOutCharacteristic) in zip(service.characteristics, laidOut.characteristics) {
                attributes[laidOutCharacteristic.path] = RemoteAttribute(
                    owner: owner, path: characteristic.path, kind: .characteristic, flags: characteristic.flags)
                let added = laidOutCharacteristic.descriptors.count - characteristic.descriptors.count
                for (descriptor, laidOutDescriptor) in zip(
                    characteristic.descriptors, laidOutCharacteristic.descriptors.dropFirst(added))
                {
                    attributes[laidOutDescriptor.path] = RemoteAttribute(
                        owner: owner, path: descriptor.path, kind: .descriptor, flags: descriptor.flags)
                }
            }
        }
        return attributes
    }

    /// The applications of a connected virtual peripheral changed: bluetoothd indicates Service
    /// Changed and the central's bluetoothd discovers again, so the central loses the objects of the
    /// services that went (their notification sessions and reads end) and gains those of the new ones.
    /// The link stays. BlueZ's own services come first and do not change.
    func changeDatabase(
        _ address: String, _ layout: GattLayout, _ attributes: [DBusObjectPath: RemoteAttribute],
        _ run: inout RunState, _ effects: inout [Effect]
    ) {
        guard var device = run.devices[address], var gatt = device.gatt, var remote = device.remote else { return }
        let local = Self.localDatabase(name: "").count
        let before = device.layout.services.dropFirst(local).map { ($0.path, $0.uuid) }
        let after = layout.services.dropFirst(local).map { ($0.path, $0.uuid) }
        guard
            !before.elementsEqual(after, by: { $0 == $1 })
                || remote.attributes.mapValues({ [$0.owner, $0.path.rawValue] })
                    != attributes.mapValues({ [$0.owner, $0.path.rawValue] })
        else { return }
        var removed: [DBusObjectPath] = []
        for service in device.layout.services.dropFirst(local) {
            for characteristic in service.characteristics {
                removed += characteristic.descriptors.map(\.path)
                removed.append(characteristic.path)
            }
            removed.append(service.path)
        }
        for path in removed {
            gatt.objects[path] = nil
            gatt.notify[path] = nil
            gatt.notificationCounts[path] = nil
            if let read = gatt.reads.removeValue(forKey: path) {
                effects += read.replies.map { $0.fail(BlueZError.operationFailed) }
            }
            // The application's objects went with its registration: bluetoothd sends them nothing more.
            remote.notifying.remove(path)
        }
        device.layout = layout
        device.values = layout.initialValues
        remote.attributes = attributes
        device.remote = remote
        let added = makeGattObjects(device, run: run.id).filter { object in
            layout.services.dropFirst(local).contains { object.path.isWithin($0.path) }
        }
        for object in added { gatt.objects[object.path] = object }
        device.gatt = gatt
        run.devices[address] = device
        let exports = run.exports
        let endpoint = run.endpoint
        effects.append { [removed] in
            for path in removed { exports.remove(path) }
            for object in added { exports.export(object, on: endpoint) }
        }
    }
}
