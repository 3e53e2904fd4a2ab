import RxDBus

/// Discovery as bluetoothd keeps it: one session per client (by unique name), each with the filter
/// its client set; the adapter discovers while any session is open, and reports what any session's
/// filter admits.
struct DiscoverySessions {
    /// Clients with a session, and the filter each set (`nil`: none, everything is reported).
    private(set) var sessions: [String: DiscoveryFilter?] = [:]
    /// Filters set by clients that have no session yet (SetDiscoveryFilter may come first).
    private var preset: [String: DiscoveryFilter] = [:]

    var isDiscovering: Bool { !sessions.isEmpty }

    /// Opens a session for `client`; `false` if it has one.
    mutating func start(_ client: String) -> Bool {
        guard sessions[client] == nil else { return false }
        sessions[client] = .some(preset.removeValue(forKey: client))
        return true
    }

    /// Closes the session of `client`; `false` if it had none.
    mutating func stop(_ client: String) -> Bool {
        sessions.removeValue(forKey: client) != nil
    }

    mutating func setFilter(_ filter: DiscoveryFilter?, for client: String) {
        if sessions[client] != nil {
            sessions[client] = .some(filter)
        } else {
            preset[client] = filter
        }
    }

    /// Forgets a client that left the bus; `true` if it had a session.
    mutating func forget(_ client: String) -> Bool {
        preset[client] = nil
        return sessions.removeValue(forKey: client) != nil
    }

    /// Ends every session (the radio went off); preset filters stay.
    mutating func endAll() {
        sessions = [:]
    }

    /// BlueZ reports RSSI changes of 8 dBm or more only, unless a session's filter asks for RSSI or
    /// path loss.
    var rssiThreshold: Int16 {
        sessions.values.contains { $0?.hasProximity == true } ? 0 : 8
    }

    /// Whether an advertisement is reported: some session has no filter, or its filter admits it.
    func admits(_ advertisement: DiscoveryFilter.Advertisement) -> Bool {
        sessions.values.contains { filter in filter.map { $0.admits(advertisement) } ?? true }
    }
}

/// SetDiscoveryFilter's dictionary, parsed as bluetoothd parses it.
struct DiscoveryFilter: Equatable {
    var uuids: [String] = []
    var rssi: Int16?
    var pathloss: UInt16?
    var transport = "auto"
    var duplicateData = false
    var discoverable = false
    var pattern: String?
    var autoConnect = false

    /// What GetDiscoveryFilters lists.
    static let keys = [
        "UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern", "AutoConnect",
    ]

    /// The filter of a SetDiscoveryFilter dictionary; `nil` for an empty one (which removes the
    /// client's filter). Unknown keys and values of the wrong type are invalid arguments.
    static func parse(_ entries: [String: DBusValue]) throws(DBusError) -> DiscoveryFilter? {
        guard !entries.isEmpty else { return nil }
        var filter = DiscoveryFilter()
        for (key, wrapped) in entries {
            let value = wrapped.unwrapped
            switch (key, value) {
            case ("UUIDs", _):
                guard let uuids = value.strings else { throw BlueZError.invalidArguments }
                filter.uuids = uuids.map(BluetoothUUID.canonical)
            case ("RSSI", .int16(let rssi)):
                // bluetoothd accepts -127…20 dBm.
                guard (-127...20).contains(rssi) else { throw BlueZError.invalidArguments }
                filter.rssi = rssi
            case ("Pathloss", .uint16(let pathloss)):
                filter.pathloss = pathloss
            case ("Transport", .string(let transport)):
                guard ["auto", "bredr", "le"].contains(transport) else { throw BlueZError.invalidArguments }
                filter.transport = transport
            case ("DuplicateData", .bool(let on)):
                filter.duplicateData = on
            case ("Discoverable", .bool(let on)):
                filter.discoverable = on
            case ("Pattern", .string(let pattern)):
                filter.pattern = pattern
            case ("AutoConnect", .bool(let on)):
                filter.autoConnect = on
            default:
                throw BlueZError.invalidArguments
            }
        }
        // RSSI and Pathloss exclude each other.
        if filter.rssi != nil && filter.pathloss != nil { throw BlueZError.invalidArguments }
        return filter
    }

    var hasProximity: Bool { rssi != nil || pathloss != nil }

    /// What a filter looks at in an advertisement.
    struct Advertisement {
        var address: String
        var name: String?
        var uuids: [String]
        var rssi: Int16
        var txPower: Int16?
    }

    func admits(_ advertisement: Advertisement) -> Bool {
        // Every simulated device is an LE device.
        if transport == "bredr" { return false }
        if !uuids.isEmpty && !advertisement.uuids.contains(where: uuids.contains) { return false }
        if let rssi, advertisement.rssi < rssi { return false }
        if let pathloss {
            guard let txPower = advertisement.txPower, Int(txPower) - Int(advertisement.rssi) <= Int(pathloss)
            else { return false }
        }
        if let pattern, !pattern.isEmpty {
            let nameMatches = advertisement.name?.hasPrefix(pattern) ?? false
            guard advertisement.address.hasPrefix(pattern.uppercased()) || nameMatches else { return false }
        }
        return true
    }
}
