import RxDBus

/// An advertisement's `org.bluez.LEAdvertisement1` properties, parsed as bluetoothd's advertising
/// manager parses them (`parse_advertisement`, property by property in its order).
struct AdvertisementData: Equatable {
    /// `Type` "peripheral" (connectable); "broadcast" or no Type is not (bluetoothd's default type is
    /// broadcast).
    var isConnectable = false
    var serviceUUIDs: [String] = []
    var solicitUUIDs: [String] = []
    var manufacturerData: [UInt16: [UInt8]] = [:]
    var serviceData: [String: [UInt8]] = [:]
    /// The supported system includes asked for ("tx-power", "appearance", "local-name").
    var includes: Set<String> = []
    var localName: String?
    var appearance: UInt16?
    /// Seconds until BlueZ removes the advertisement (and calls Release); 0: never.
    var timeout: UInt16 = 0
    var discoverable: Bool?
    var discoverableTimeout: UInt16 = 0
    var txPower: Int16?

    static let supportedIncludes: Set<String> = ["tx-power", "appearance", "local-name"]

    /// bluetoothd answers every property it cannot take with this.
    static let invalid = BlueZError.failed("Failed to parse advertisement.")

    /// The properties (values unwrapped) parsed; Failed "Failed to parse advertisement." for a value of
    /// the wrong type, a UUID that is none, LocalName or Appearance given with the include that
    /// supplies it, a broadcast that asks to be discoverable, a DiscoverableTimeout beyond Timeout,
    /// an interval out of range, MinInterval above MaxInterval (or given alone, which bluetoothd then
    /// compares with 0).
    init(_ properties: [String: DBusValue]) throws(DBusError) {
        let invalid = Self.invalid
        if let value = properties["Type"] {
            guard case .string(let type) = value, ["peripheral", "broadcast"].contains(type) else { throw invalid }
            isConnectable = type == "peripheral"
        }
        serviceUUIDs = try Self.uuids(properties["ServiceUUIDs"])
        solicitUUIDs = try Self.uuids(properties["SolicitUUIDs"])
        if let value = properties["ManufacturerData"] {
            guard case .dictionary("q", _, let entries) = value else { throw invalid }
            for entry in entries {
                guard case .uint16(let company) = entry.key, let bytes = entry.value.unwrapped.bytes else {
                    throw invalid
                }
                manufacturerData[company] = bytes
            }
        }
        if let value = properties["ServiceData"] {
            guard case .dictionary("s", _, let entries) = value else { throw invalid }
            for entry in entries {
                guard let text = entry.key.string, let uuid = BluetoothUUID.parse(text),
                    let bytes = entry.value.unwrapped.bytes
                else { throw invalid }
                serviceData[uuid] = bytes
            }
        }
        if let value = properties["Includes"] {
            guard let names = value.strings else { throw invalid }
            // Unknown or unsupported includes are left out, as bluetoothd does.
            includes = Set(names).intersection(Self.supportedIncludes)
        }
        if let value = properties["LocalName"] {
            guard case .string(let name) = value, !includes.contains("local-name") else { throw invalid }
            localName = name.isEmpty ? nil : name
        }
        if let value = properties["Appearance"] {
            guard case .uint16(let appearance) = value, !includes.contains("appearance") else { throw invalid }
            self.appearance = appearance
        }
        try Self.check(properties["Duration"], is: "q")
        if let value = properties["Timeout"] {
            guard case .uint16(let seconds) = value else { throw invalid }
            timeout = seconds
        }
        if let value = properties["Data"], value.signature != "a{yv}" { throw invalid }
        if let value = properties["Discoverable"] {
            guard case .bool(let on) = value else { throw invalid }
            discoverable = on
        }
        if let value = properties["DiscoverableTimeout"] {
            guard case .uint16(let seconds) = value else { throw invalid }
            discoverableTimeout = seconds
        }
        if let value = properties["SecondaryChannel"] {
            guard case .string(let channel) = value, ["1M", "2M", "Coded"].contains(channel) else { throw invalid }
        }
        let minimum = try Self.interval(properties["MinInterval"])
        let maximum = try Self.interval(properties["MaxInterval"])
        if let value = properties["TxPower"] {
            guard case .int16(let power) = value, (-127...20).contains(power) else { throw invalid }
            txPower = power
        }
        if !isConnectable && discoverable == true { throw invalid }
        if discoverable == true && timeout > 0 && timeout < discoverableTimeout { throw invalid }
        // As bluetoothd compares them: one given without the other is compared with 0.
        if minimum > maximum { throw invalid }
    }

    private static func uuids(_ value: DBusValue?) throws(DBusError) -> [String] {
        guard let value else { return [] }
        guard let texts = value.strings else { throw invalid }
        var uuids: [String] = []
        for text in texts {
            guard let uuid = BluetoothUUID.parse(text) else { throw invalid }
            uuids.append(uuid)
        }
        return uuids
    }

    /// MinInterval or MaxInterval in units of 0.625 ms, which must be 0x20…0xFFFFFF (20 ms to
    /// 10 485 s); 0 when not given.
    private static func interval(_ value: DBusValue?) throws(DBusError) -> Double {
        guard let value else { return 0 }
        guard case .uint32(let milliseconds) = value else { throw invalid }
        let units = (Double(milliseconds) / 0.625).rounded(.down)
        guard units >= 0x20 && units <= 0xFF_FFFF else { throw invalid }
        return units
    }

    private static func check(_ value: DBusValue?, is signature: String) throws(DBusError) {
        if let value, value.signature != signature { throw invalid }
    }
}
