@_spi(BlueZ) import CoreBluetooth
import Foundation

/// What a peripheral advertised, under CoreBluetooth's keys. On Linux it is built from BlueZ's
/// `Device1` properties: `Name` (or `Alias`), `ManufacturerData` (each company's bytes after its
/// little-endian identifier, as CoreBluetooth gives them), `ServiceData`, `UUIDs`, `TxPower`.
public struct AdvertisementData: @unchecked Sendable {
    public let advertisementData: [String: Any]

    public init(advertisementData: [String: Any]) { self.advertisementData = advertisementData }

    public var localName: String? { advertisementData[CBAdvertisementDataLocalNameKey] as? String }
    public var manufacturerData: Data? { advertisementData[CBAdvertisementDataManufacturerDataKey] as? Data }
    public var serviceData: [CBUUID: Data]? { advertisementData[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data] }
    public var serviceUUIDs: [CBUUID]? { advertisementData[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] }
    public var overflowServiceUUIDs: [CBUUID]? {
        advertisementData[CBAdvertisementDataOverflowServiceUUIDsKey] as? [CBUUID]
    }
    public var txPowerLevel: NSNumber? { advertisementData[CBAdvertisementDataTxPowerLevelKey] as? NSNumber }
    public var isConnectable: Bool? { (advertisementData[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue }
    public var solicitedServiceUUIDs: [CBUUID]? {
        advertisementData[CBAdvertisementDataSolicitedServiceUUIDsKey] as? [CBUUID]
    }
}
