import Foundation

/// A peripheral's `identifier` on Linux. CoreBluetooth makes up a UUID per device and keeps it per
/// phone; BlueZ names devices by address. RxBluetoothKit on Linux makes the UUID *from* the addresses,
/// so that it is the same on every run and every machine with the same adapter, and so that
/// `retrievePeripherals(withIdentifiers:)` can find a device BlueZ has not seen yet:
///
/// bytes 0–5 the adapter's address, byte 6 `0x80` (version 8, "custom") with the address type in its
/// low bit (1: random), byte 8 `0x80` (the RFC 9562 variant), bytes 10–15 the device's address.
enum PeripheralIdentity {
    static func identifier(adapter: String, device: String, randomAddress: Bool) -> UUID {
        let a = bytes(of: adapter)
        let d = bytes(of: device)
        let t: UInt8 = randomAddress ? 1 : 0
        return UUID(
            uuid: (a[0], a[1], a[2], a[3], a[4], a[5], 0x80 | t, 0, 0x80, 0, d[0], d[1], d[2], d[3], d[4], d[5]))
    }

    /// The device address an identifier was made from, if it was made for this adapter.
    static func deviceAddress(of identifier: UUID, adapter: String) -> String? {
        let u = identifier.uuid
        let a = bytes(of: adapter)
        guard [u.0, u.1, u.2, u.3, u.4, u.5] == a, u.6 & 0xF0 == 0x80, u.8 == 0x80 else { return nil }
        return [u.10, u.11, u.12, u.13, u.14, u.15].map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// `AA:BB:CC:DD:EE:FF` → its six bytes (zeros for a malformed address).
    static func bytes(of address: String) -> [UInt8] {
        let parts = address.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        return parts.count == 6 ? parts : [0, 0, 0, 0, 0, 0]
    }
}
