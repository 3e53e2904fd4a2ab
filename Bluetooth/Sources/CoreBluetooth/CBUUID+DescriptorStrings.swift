// The UUID strings Apple's CoreBluetooth names as constants, with Apple's values, so that code comparing a
// descriptor's `uuid` against `CBUUID(string: CBUUIDClientCharacteristicConfigurationString)` compiles
// and behaves the same on Linux.

/// The Characteristic Extended Properties descriptor's UUID, `2900`.
public let CBUUIDCharacteristicExtendedPropertiesString: String = "2900"

/// The Characteristic User Description descriptor's UUID, `2901`: the characteristic's name as a string.
public let CBUUIDCharacteristicUserDescriptionString: String = "2901"

/// The Client Characteristic Configuration descriptor's UUID, `2902`: the descriptor a client writes to
/// turn notifications and indications on and off.
public let CBUUIDClientCharacteristicConfigurationString: String = "2902"

/// The Server Characteristic Configuration descriptor's UUID, `2903`.
public let CBUUIDServerCharacteristicConfigurationString: String = "2903"

/// The Characteristic Presentation Format descriptor's UUID, `2904`: the value's type, exponent and unit.
public let CBUUIDCharacteristicFormatString: String = "2904"

/// The Characteristic Aggregate Format descriptor's UUID, `2905`.
public let CBUUIDCharacteristicAggregateFormatString: String = "2905"

/// The Valid Range descriptor's UUID, `2906`: the least and greatest values the characteristic accepts.
public let CBUUIDCharacteristicValidRangeString: String = "2906"

/// The Observation Schedule descriptor's UUID, `2910`.
public let CBUUIDCharacteristicObservationScheduleString: String = "2910"

/// The UUID of the characteristic whose value is the PSM (a little-endian `UInt16`) of an L2CAP channel
/// that the service holding it offers. It is Apple's own UUID, not one the Bluetooth SIG assigned.
public let CBUUIDL2CAPPSMCharacteristicString: String = "ABDD3056-28FA-441D-A470-55A75A52553A"
