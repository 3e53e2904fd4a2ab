import CoreBluetooth
import RxDBus

/// The properties of the `org.bluez.LEAdvertisement1` object for CoreBluetooth's advertisement data.
enum AdvertisementProperties {
    /// `Type` `peripheral` (connectable), and, from `data`: `LocalName` (``CBAdvertisementDataLocalNameKey``),
    /// `ServiceUUIDs` (``CBAdvertisementDataServiceUUIDsKey``, `[CBUUID]`), `ManufacturerData`
    /// (``CBAdvertisementDataManufacturerDataKey``: the company identifier, little-endian, then its bytes)
    /// and `ServiceData` (``CBAdvertisementDataServiceDataKey``, `[CBUUID: Data]`). Other keys, and values
    /// of other types, are left out.
    static func make(_ data: [String: Any]?) -> [String: DBusValue] {
        let data = data ?? [:]
        var properties: [String: DBusValue] = ["Type": .string("peripheral")]
        if let name = data[CBAdvertisementDataLocalNameKey] as? String {
            properties["LocalName"] = .string(name)
        }
        if let uuids = data[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID], !uuids.isEmpty {
            properties["ServiceUUIDs"] = .strings(uuids.map(\.fullUUIDString))
        }
        if let manufacturer = data[CBAdvertisementDataManufacturerDataKey] as? Data, manufacturer.count >= 2 {
            let bytes = [UInt8](manufacturer)
            let company = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
            properties["ManufacturerData"] = .dictionary(
                [company: .variant(.bytes(Array(bytes[2...])))], keySignature: "q", valueSignature: "v"
            ) { .uint16($0) }
        }
        if let serviceData = data[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data], !serviceData.isEmpty {
            let entries = Dictionary(uniqueKeysWithValues: serviceData.map { ($0.key.fullUUIDString, $0.value) })
            properties["ServiceData"] = .dictionary(
                entries.mapValues { .variant(.bytes([UInt8]($0))) }, keySignature: "s", valueSignature: "v"
            ) { .string($0) }
        }
        return properties
    }
}
