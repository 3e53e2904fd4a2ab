// The keys of the advertisement data dictionary a central manager reports with each discovered peripheral
// (and a peripheral manager advertises), with Apple's values, so that `advertisementData[key]` code and
// dictionaries logged or stored on one platform read the same on the other.

/// The peripheral's local name, a `String`.
public let CBAdvertisementDataLocalNameKey: String = "kCBAdvDataLocalName"

/// The manufacturer-specific data, a `Data`: the 16-bit company identifier (little-endian) followed by the
/// manufacturer's bytes.
public let CBAdvertisementDataManufacturerDataKey: String = "kCBAdvDataManufacturerData"

/// Service-specific data, a `[CBUUID: Data]`.
public let CBAdvertisementDataServiceDataKey: String = "kCBAdvDataServiceData"

/// The advertised service UUIDs, a `[CBUUID]`.
public let CBAdvertisementDataServiceUUIDsKey: String = "kCBAdvDataServiceUUIDs"

/// Service UUIDs found in the overflow area of an iOS app's background advertisement, a `[CBUUID]`; a
/// best guess, since that area holds hashes. Apple's value is `kCBAdvDataHashedServiceUUIDs`.
public let CBAdvertisementDataOverflowServiceUUIDsKey: String = "kCBAdvDataHashedServiceUUIDs"

/// The transmit power level in dBm, an `NSNumber`.
public let CBAdvertisementDataTxPowerLevelKey: String = "kCBAdvDataTxPowerLevel"

/// Whether the advertising event type is connectable, an `NSNumber` holding a `Bool`.
public let CBAdvertisementDataIsConnectable: String = "kCBAdvDataIsConnectable"

/// The solicited service UUIDs, a `[CBUUID]`: services the peripheral asks a central to offer.
public let CBAdvertisementDataSolicitedServiceUUIDsKey: String = "kCBAdvDataSolicitedServiceUUIDs"
