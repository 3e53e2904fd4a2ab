import RxDBus

extension BlueZSimulation {
    /// The simulation's state at one moment, for tests and the command line.
    public struct Snapshot: Sendable, Equatable {
        public var isRunning: Bool
        public var isPowered: Bool
        /// The clients (unique names) with a discovery session, sorted.
        public var discoveryClients: [String]
        public var devices: [DeviceSnapshot]

        public var isDiscovering: Bool { !discoveryClients.isEmpty }

        public func device(_ address: String) -> DeviceSnapshot? {
            devices.first { $0.address == address.uppercased() }
        }
    }

    public struct DeviceSnapshot: Sendable, Equatable {
        public var address: String
        public var path: DBusObjectPath
        /// Whether BlueZ has an object for it.
        public var isOnBus: Bool
        public var isInRange: Bool
        public var isTemporary: Bool
        public var isConnecting: Bool
        public var isConnected: Bool
        public var servicesResolved: Bool
        public var isPaired: Bool
        public var isTrusted: Bool
        /// The RSSI BlueZ shows, if any.
        public var rssi: Int16?
        /// The clients with notifications on, by characteristic path.
        public var notifyClients: [DBusObjectPath: [String]]
        /// Notifications sent on the current link, by characteristic path.
        public var notificationCounts: [DBusObjectPath: Int]
        /// The peripheral's value of each characteristic, by path.
        public var values: [DBusObjectPath: [UInt8]]
    }

    public var snapshot: Snapshot {
        state.withLock { state in
            guard let run = state.run else {
                return Snapshot(isRunning: false, isPowered: false, discoveryClients: [], devices: [])
            }
            let devices = run.devices.values.sorted { $0.profile.address < $1.profile.address }.map { device in
                DeviceSnapshot(
                    address: device.profile.address, path: device.path, isOnBus: device.object != nil,
                    isInRange: device.inRange, isTemporary: device.temporary, isConnecting: device.isConnecting,
                    isConnected: device.isConnected, servicesResolved: device.servicesResolved, isPaired: device.paired,
                    isTrusted: device.trusted, rssi: device.rssi,
                    notifyClients: device.gatt?.notify.mapValues(\.clients) ?? [:],
                    notificationCounts: device.gatt?.notificationCounts ?? [:],
                    values: device.layout.characteristics.mapValues { device.values[$0.valueHandle] ?? [] })
            }
            return Snapshot(
                isRunning: true, isPowered: run.adapter.powered, discoveryClients: run.discovery.sessions.keys.sorted(),
                devices: devices)
        }
    }

    /// Where BlueZ exports the characteristic `uuid` of the device (the first, if several services
    /// have one); the same in every run.
    public func characteristicPath(address: String, uuid: String) -> DBusObjectPath? {
        layout(of: address)?.services.lazy.flatMap(\.characteristics).first {
            $0.uuid == BluetoothUUID.canonical(uuid)
        }?
        .path
    }

    /// Where BlueZ exports the service `uuid` of the device.
    public func servicePath(address: String, uuid: String) -> DBusObjectPath? {
        layout(of: address)?.services.first { $0.uuid == BluetoothUUID.canonical(uuid) }?.path
    }

    /// Where BlueZ exports the descriptor `uuid` of the device's characteristic `characteristic`.
    public func descriptorPath(address: String, characteristic: String, uuid: String) -> DBusObjectPath? {
        layout(of: address)?.services.lazy.flatMap(\.characteristics)
            .first { $0.uuid == BluetoothUUID.canonical(characteristic) }?
            .descriptors.first { $0.uuid == BluetoothUUID.canonical(uuid) }?.path
    }

    private func layout(of address: String) -> GattLayout? {
        guard let profile = configuration.devices.first(where: { $0.address == address.uppercased() }) else {
            return nil
        }
        return GattLayout(device: BlueZ.devicePath(profile.address), services: profile.services)
    }
}
