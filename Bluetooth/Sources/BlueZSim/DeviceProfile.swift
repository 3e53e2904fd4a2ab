import Dispatch

/// A simulated peripheral: what it advertises, how it behaves over time, and its GATT database.
public struct DeviceProfile: Sendable {
    /// Device1's `AddressType`.
    public enum AddressType: String, Sendable {
        case `public`
        case random
    }

    /// What an advertisement carries besides the fixed fields; it may change from report to report.
    public struct AdvertisedData: Sendable, Equatable {
        /// Company identifier → data (Device1's `ManufacturerData`, `a{qv}` of `ay`).
        public var manufacturerData: [UInt16: [UInt8]]
        /// Service UUID (any form) → data (Device1's `ServiceData`, `a{sv}` of `ay`).
        public var serviceData: [String: [UInt8]]

        public init(manufacturerData: [UInt16: [UInt8]] = [:], serviceData: [String: [UInt8]] = [:]) {
            self.manufacturerData = manufacturerData
            self.serviceData = serviceData
        }
    }

    /// Names a device goes through, one after the other, changing every `interval` (a phone whose
    /// user renames it, a sensor that puts its state in its name).
    public struct NameCycle: Sendable {
        public var names: [String]
        public var interval: DispatchTimeInterval

        public init(names: [String], every interval: DispatchTimeInterval) {
            self.names = names
            self.interval = interval
        }
    }

    /// `AA:BB:CC:DD:EE:FF`, upper case, as BlueZ writes addresses.
    public var address: String
    public var addressType: AddressType
    /// The advertised (complete local) name; `nil` for a device that advertises none (its Alias is
    /// then the address with dashes, as BlueZ's is).
    public var name: String?
    public var nameCycle: NameCycle?
    public var appearance: UInt16?
    /// Class of Device, for devices that have one (BR/EDR); LE-only peripherals have none.
    public var deviceClass: UInt32?
    public var txPower: Int16?
    /// The signal strength the device is seen at; reports move around it.
    public var rssi: Int16
    /// The service UUIDs in the advertisement.
    public var advertisedServices: [String]
    /// The advertisement's data for its `report`-th report of a discovery (1, 2, …).
    public var advertisedData: @Sendable (_ report: Int) -> AdvertisedData
    /// The advertisement's Flags AD (LE General Discoverable, BR/EDR not supported by default).
    public var advertisingFlags: [UInt8]
    public var legacyPairing: Bool
    /// A non-connectable device (a beacon) is forgotten as soon as discovery stops.
    public var isConnectable: Bool
    /// How long after discovery starts the first advertisement is received.
    public var firstSeenAfter: DispatchTimeInterval
    /// The time between two advertisement reports.
    public var advertisingInterval: DispatchTimeInterval
    /// A connection to the device is lost (link supervision timeout) this long after it is made.
    public var linkLossAfter: DispatchTimeInterval?
    /// The ATT MTU of a connection (the characteristics' `MTU`).
    public var mtu: UInt16
    public var services: [ServiceProfile]

    public init(
        address: String, addressType: AddressType = .public, name: String?, nameCycle: NameCycle? = nil,
        appearance: UInt16? = nil, deviceClass: UInt32? = nil, txPower: Int16? = nil, rssi: Int16 = -60,
        advertisedServices: [String] = [], manufacturerData: [UInt16: [UInt8]] = [:],
        serviceData: [String: [UInt8]] = [:], advertisingFlags: [UInt8] = [0x06], legacyPairing: Bool = false,
        isConnectable: Bool = true, firstSeenAfter: DispatchTimeInterval = .milliseconds(100),
        advertisingInterval: DispatchTimeInterval = .seconds(1), linkLossAfter: DispatchTimeInterval? = nil,
        mtu: UInt16 = 247, services: [ServiceProfile] = []
    ) {
        self.address = address.uppercased()
        self.addressType = addressType
        self.name = name
        self.nameCycle = nameCycle
        self.appearance = appearance
        self.deviceClass = deviceClass
        self.txPower = txPower
        self.rssi = rssi
        self.advertisedServices = advertisedServices
        let data = AdvertisedData(manufacturerData: manufacturerData, serviceData: serviceData)
        self.advertisedData = { _ in data }
        self.advertisingFlags = advertisingFlags
        self.legacyPairing = legacyPairing
        self.isConnectable = isConnectable
        self.firstSeenAfter = firstSeenAfter
        self.advertisingInterval = advertisingInterval
        self.linkLossAfter = linkLossAfter
        self.mtu = mtu
        self.services = services
    }
}
