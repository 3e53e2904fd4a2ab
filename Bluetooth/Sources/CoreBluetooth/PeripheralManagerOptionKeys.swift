// The option keys of a peripheral manager, with Apple's values: the options of its initializer and the
// keys of the state it restores.

/// Whether to warn the user when Bluetooth is off as the manager starts, an `NSNumber` holding a `Bool`.
/// Apple gives it the central manager's value.
public let CBPeripheralManagerOptionShowPowerAlertKey: String = "kCBInitOptionShowPowerAlert"

/// The identifier under which the system restores the manager's state when it relaunches the app, a
/// `String`. Apple gives it the central manager's value.
public let CBPeripheralManagerOptionRestoreIdentifierKey: String = "kCBInitOptionRestoreIdentifier"

/// The services the manager had published, a `[CBMutableService]`.
public let CBPeripheralManagerRestoredStateServicesKey: String = "kCBRestoredServices"

/// The advertisement data the manager was advertising, a `[String: Any]`.
public let CBPeripheralManagerRestoredStateAdvertisementDataKey: String = "kCBRestoredAdvertisement"
