import Dispatch

extension BlueZSimulation {
    /// What is simulated: the adapter, the devices around it, and the timings BlueZ and the radio
    /// would impose.
    public struct Configuration: Sendable {
        public var adapter: AdapterProfile
        public var devices: [DeviceProfile]
        /// Whether the adapter is powered when the simulation starts (bluetoothd powers it at start
        /// with the default AutoEnable=true).
        public var poweredAtStart: Bool
        /// How long a discovered device that was never connected or paired stays after its last
        /// advertisement (bluetoothd's TemporaryTimeout, 30 s by default).
        public var temporaryDeviceTimeout: DispatchTimeInterval
        /// From Connect to the link being up (Connected true, the reply).
        public var connectDelay: DispatchTimeInterval
        /// From the link being up to the GATT objects being exported and ServicesResolved true.
        public var serviceResolveDelay: DispatchTimeInterval

        public init(
            adapter: AdapterProfile = AdapterProfile(), devices: [DeviceProfile], poweredAtStart: Bool = true,
            temporaryDeviceTimeout: DispatchTimeInterval = .seconds(30),
            connectDelay: DispatchTimeInterval = .milliseconds(300),
            serviceResolveDelay: DispatchTimeInterval = .milliseconds(200)
        ) {
            self.adapter = adapter
            self.devices = devices
            self.poweredAtStart = poweredAtStart
            self.temporaryDeviceTimeout = temporaryDeviceTimeout
            self.connectDelay = connectDelay
            self.serviceResolveDelay = serviceResolveDelay
        }

        /// The adapter and ``StandardDevices/all``.
        public static var standard: Configuration { Configuration(devices: StandardDevices.all) }
    }

    /// The local controller as Adapter1 shows it.
    public struct AdapterProfile: Sendable {
        public var address: String
        public var addressType: DeviceProfile.AddressType
        /// The system name (the pretty hostname, for bluetoothd).
        public var name: String
        public var deviceClass: UInt32
        public var modalias: String
        /// Company identifier of the controller's manufacturer.
        public var manufacturer: UInt16
        /// Core specification version code (0x0c: 5.3).
        public var version: UInt8
        /// The local services, as bluetoothd registers them by default.
        public var uuids: [String]
        public var roles: [String]

        public init(
            address: String = "00:1A:7D:DA:71:0A", addressType: DeviceProfile.AddressType = .public,
            name: String = "bluez-sim", deviceClass: UInt32 = 0x7C010C,
            modalias: String = "usb:v1D6Bp0246d054F", manufacturer: UInt16 = 0x0002, version: UInt8 = 0x0C,
            uuids: [String] = ["1800", "1801", "180A", "110E", "110C", "1200"],
            roles: [String] = ["central", "peripheral"]
        ) {
            self.address = address.uppercased()
            self.addressType = addressType
            self.name = name
            self.deviceClass = deviceClass
            self.modalias = modalias
            self.manufacturer = manufacturer
            self.version = version
            self.uuids = uuids
            self.roles = roles
        }
    }
}
