import RxDBus

/// Where each attribute of a device's GATT database sits: its handle, as a peripheral numbers its
/// attributes (a service's declaration, then each characteristic's declaration, value and
/// descriptors), and the path BlueZ exports it at (`…/service000a/char000b/desc000d`).
struct GattLayout: Sendable {
    struct Service: Sendable {
        let path: DBusObjectPath
        let handle: UInt16
        let uuid: String
        let isPrimary: Bool
        let characteristics: [Characteristic]
    }

    struct Characteristic: Sendable {
        let path: DBusObjectPath
        let servicePath: DBusObjectPath
        /// The declaration's handle: BlueZ's `Handle` and the number in the path.
        let handle: UInt16
        /// Where the value lives; notifications and the peripheral's state are keyed by it.
        let valueHandle: UInt16
        let uuid: String
        let profile: CharacteristicProfile
        let descriptors: [Descriptor]

        func has(_ flag: CharacteristicProfile.Flag) -> Bool { profile.flags.contains(flag) }

        /// The write procedure for a WriteValue: the option's `type`, or else, as bluetoothd picks it
        /// from the flags, reliable write, write request, write command; `nil` if the flags allow none.
        func writeProcedure(_ type: String?) -> String? {
            if let type { return type }
            if has(.reliableWrite) { return "reliable" }
            if has(.write) { return "request" }
            if has(.writeWithoutResponse) { return "command" }
            return nil
        }
        var canNotify: Bool { has(.notify) || has(.indicate) }
    }

    struct Descriptor: Sendable {
        let path: DBusObjectPath
        let characteristicPath: DBusObjectPath
        let handle: UInt16
        let uuid: String
        let profile: DescriptorProfile
        var isClientConfiguration: Bool { uuid == BluetoothUUID.clientCharacteristicConfiguration }
    }

    let services: [Service]
    let characteristics: [DBusObjectPath: Characteristic]
    let descriptors: [DBusObjectPath: Descriptor]

    init(device: DBusObjectPath, services profiles: [ServiceProfile]) {
        var handle: UInt16 = 0
        func next() -> UInt16 {
            handle += 1
            return handle
        }
        var services: [Service] = []
        var characteristics: [DBusObjectPath: Characteristic] = [:]
        var descriptors: [DBusObjectPath: Descriptor] = [:]
        for serviceProfile in profiles {
            let serviceHandle = next()
            let servicePath = device.appending(BlueZ.attributeElement("service", serviceHandle))
            var serviceCharacteristics: [Characteristic] = []
            for profile in serviceProfile.characteristics {
                let declaration = next()
                let value = next()
                let path = servicePath.appending(BlueZ.attributeElement("char", declaration))
                var descriptorProfiles = profile.descriptors
                let notifies = profile.flags.contains(.notify) || profile.flags.contains(.indicate)
                if notifies,
                    !descriptorProfiles.contains(where: {
                        BluetoothUUID.canonical($0.uuid) == BluetoothUUID.clientCharacteristicConfiguration
                    })
                {
                    // The peripheral's configuration descriptor comes first, as most stacks place it.
                    descriptorProfiles.insert(
                        DescriptorProfile(uuid: "2902", flags: [.read, .write], value: [0, 0], maxLength: 2), at: 0)
                }
                var characteristicDescriptors: [Descriptor] = []
                for descriptorProfile in descriptorProfiles {
                    let descriptorHandle = next()
                    let descriptor = Descriptor(
                        path: path.appending(BlueZ.attributeElement("desc", descriptorHandle)),
                        characteristicPath: path, handle: descriptorHandle,
                        uuid: BluetoothUUID.canonical(descriptorProfile.uuid), profile: descriptorProfile)
                    characteristicDescriptors.append(descriptor)
                    descriptors[descriptor.path] = descriptor
                }
                let characteristic = Characteristic(
                    path: path, servicePath: servicePath, handle: declaration, valueHandle: value,
                    uuid: BluetoothUUID.canonical(profile.uuid), profile: profile,
                    descriptors: characteristicDescriptors)
                serviceCharacteristics.append(characteristic)
                characteristics[path] = characteristic
            }
            services.append(
                Service(
                    path: servicePath, handle: serviceHandle, uuid: BluetoothUUID.canonical(serviceProfile.uuid),
                    isPrimary: serviceProfile.isPrimary, characteristics: serviceCharacteristics))
        }
        self.services = services
        self.characteristics = characteristics
        self.descriptors = descriptors
    }

    /// The values the peripheral starts with, by handle (characteristic values and descriptors).
    var initialValues: [UInt16: [UInt8]] {
        var values: [UInt16: [UInt8]] = [:]
        for characteristic in characteristics.values {
            values[characteristic.valueHandle] = characteristic.profile.value
            for descriptor in characteristic.descriptors { values[descriptor.handle] = descriptor.profile.value }
        }
        return values
    }

    /// The UUIDs of the primary services (what service discovery adds to Device1's UUIDs).
    var primaryServiceUUIDs: [String] { services.filter(\.isPrimary).map(\.uuid) }
}
