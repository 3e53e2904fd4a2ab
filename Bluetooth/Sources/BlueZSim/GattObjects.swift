import RxDBus

extension BlueZSimulation {
    /// The GATT objects of a connected device, in the order bluetoothd exports them: each service,
    /// then each of its characteristics followed by the characteristic's descriptors.
    func makeGattObjects(_ device: DeviceState, run id: Int) -> [DBusExportedObject] {
        let address = device.profile.address
        var objects: [DBusExportedObject] = []
        for service in device.layout.services {
            let serviceInterface = DBusInterface(
                name: BlueZ.gattServiceInterface,
                properties: [
                    "UUID": .string(service.uuid),
                    "Primary": .bool(service.isPrimary),
                    "Device": .objectPath(device.path),
                    "Includes": .objectPaths([]),
                    "Handle": .uint16(service.handle),
                ])
            objects.append(DBusExportedObject(path: service.path, interfaces: [serviceInterface]))
            for characteristic in service.characteristics {
                objects.append(characteristicObject(characteristic, address: address, mtu: device.profile.mtu, run: id))
                for descriptor in characteristic.descriptors {
                    objects.append(descriptorObject(descriptor, address: address, run: id))
                }
            }
        }
        return objects
    }

    /// GattCharacteristic1. `Value` appears with the first read or notification (bluetoothd's cache
    /// of a newly discovered database is empty); `Notifying` exists for characteristics that notify
    /// or indicate. Acquiring a socket is not simulated, so WriteAcquired and NotifyAcquired are left
    /// out (both are optional) and AcquireWrite / AcquireNotify answer NotSupported.
    private func characteristicObject(
        _ characteristic: GattLayout.Characteristic, address: String, mtu: UInt16, run id: Int
    ) -> DBusExportedObject {
        let path = characteristic.path
        var properties: [String: DBusValue] = [
            "UUID": .string(characteristic.uuid),
            "Service": .objectPath(characteristic.servicePath),
            "Flags": .strings(characteristic.profile.flags.map(\.rawValue)),
            "MTU": .uint16(mtu),
            "Handle": .uint16(characteristic.handle),
        ]
        if characteristic.canNotify { properties["Notifying"] = .bool(false) }
        let interface = DBusInterface(
            name: BlueZ.gattCharacteristicInterface, properties: properties,
            methods: [
                "ReadValue": method(in: "a{sv}", out: "ay", run: id) { sim, run, call, reply, effects in
                    sim.readAttribute(path, address, call.arguments, reply, &run, &effects)
                },
                "WriteValue": method(in: "aya{sv}", run: id) { sim, run, call, reply, effects in
                    sim.writeCharacteristicAttribute(path, address, call.arguments, reply, &run, &effects)
                },
                "StartNotify": method(run: id) { sim, run, call, reply, effects in
                    sim.startNotifyAttribute(path, address, client: call.sender, reply, &run, &effects)
                },
                "StopNotify": method(run: id) { sim, run, call, reply, effects in
                    sim.stopNotifyAttribute(path, address, client: call.sender, reply, &run, &effects)
                },
                "AcquireWrite": method(in: "a{sv}", out: "hq", run: id) { _, _, _, reply, effects in
                    effects.append(reply.fail(BlueZError.notSupported))
                },
                "AcquireNotify": method(in: "a{sv}", out: "hq", run: id) { _, _, _, reply, effects in
                    effects.append(reply.fail(BlueZError.notSupported))
                },
            ])
        return DBusExportedObject(path: path, interfaces: [interface])
    }

    /// GattDescriptor1, with `Flags` as the documentation lists it.
    private func descriptorObject(_ descriptor: GattLayout.Descriptor, address: String, run id: Int)
        -> DBusExportedObject
    {
        let path = descriptor.path
        let interface = DBusInterface(
            name: BlueZ.gattDescriptorInterface,
            properties: [
                "UUID": .string(descriptor.uuid),
                "Characteristic": .objectPath(descriptor.characteristicPath),
                "Flags": .strings(descriptor.profile.flags.map(\.rawValue)),
                "Handle": .uint16(descriptor.handle),
            ],
            methods: [
                "ReadValue": method(in: "a{sv}", out: "ay", run: id) { sim, run, call, reply, effects in
                    sim.readAttribute(path, address, call.arguments, reply, &run, &effects)
                },
                "WriteValue": method(in: "aya{sv}", run: id) { sim, run, call, reply, effects in
                    sim.writeDescriptorAttribute(path, address, call.arguments, reply, &run, &effects)
                },
            ])
        return DBusExportedObject(path: path, interfaces: [interface])
    }

    /// Stores `value` as an attribute's cached `Value` and emits PropertiesChanged for it even when
    /// it equals the value stored: bluetoothd signals every read and every notification, and a
    /// client counting notifications must see each one.
    static func signalValue(_ value: [UInt8], of object: DBusExportedObject, interface: String) -> Effect {
        {
            let newValue = DBusValue.bytes(value)
            let current = object.property("Value", of: interface)
            if value.isEmpty {
                // An empty cache is no Value at all.
                if current != nil { object.update(interface, [:], invalidated: ["Value"]) }
            } else if current == newValue {
                object.emitSignal(
                    interface: DBusStandard.properties, member: "PropertiesChanged",
                    arguments: [.string(interface), .vardict(["Value": newValue]), .strings([])])
            } else {
                object.update(interface, ["Value": newValue])
            }
        }
    }
}
