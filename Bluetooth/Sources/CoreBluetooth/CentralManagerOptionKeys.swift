// The option keys of a central manager, with Apple's values: the options of its initializer, of
// `scanForPeripherals(withServices:options:)`, of `connect(_:options:)`, and the keys of the state it
// restores.

// MARK: Initializer options

/// Whether to warn the user when Bluetooth is off as the manager starts, an `NSNumber` holding a `Bool`.
public let CBCentralManagerOptionShowPowerAlertKey: String = "kCBInitOptionShowPowerAlert"

/// The identifier under which the system restores the manager's state when it relaunches the app, a
/// `String`.
public let CBCentralManagerOptionRestoreIdentifierKey: String = "kCBInitOptionRestoreIdentifier"

// MARK: Scan options

/// Whether to report every advertisement of a peripheral rather than the first one, an `NSNumber` holding a
/// `Bool`.
public let CBCentralManagerScanOptionAllowDuplicatesKey: String = "kCBScanOptionAllowDuplicates"

/// Also report peripherals soliciting any of these services, a `[CBUUID]`.
public let CBCentralManagerScanOptionSolicitedServiceUUIDsKey: String = "kCBScanOptionSolicitedServiceUUIDs"

// MARK: Connection options

/// Whether to alert the user when the peripheral connects while the app is suspended, an `NSNumber`
/// holding a `Bool`.
public let CBConnectPeripheralOptionNotifyOnConnectionKey: String = "kCBConnectOptionNotifyOnConnection"

/// Whether to alert the user when the peripheral disconnects while the app is suspended, an `NSNumber`
/// holding a `Bool`.
public let CBConnectPeripheralOptionNotifyOnDisconnectionKey: String = "kCBConnectOptionNotifyOnDisconnection"

/// Whether to alert the user of the peripheral's notifications while the app is suspended, an `NSNumber`
/// holding a `Bool`.
public let CBConnectPeripheralOptionNotifyOnNotificationKey: String = "kCBConnectOptionNotifyOnNotification"

/// How many seconds to wait before connecting, an `NSNumber`.
public let CBConnectPeripheralOptionStartDelayKey: String = "kCBConnectOptionStartDelay"

/// Whether to bridge classic Bluetooth profiles of the peripheral once connected over Low Energy, an
/// `NSNumber` holding a `Bool`.
public let CBConnectPeripheralOptionEnableTransportBridgingKey: String = "kCBConnectOptionEnableTransportBridging"

/// Whether the connection requires the Apple Notification Center Service, an `NSNumber` holding a `Bool`.
public let CBConnectPeripheralOptionRequiresANCS: String = "kCBConnectOptionRequiresANCS"

/// Whether the system reconnects to the peripheral by itself after it drops, an `NSNumber` holding a
/// `Bool`.
public let CBConnectPeripheralOptionEnableAutoReconnect: String = "kCBConnectOptionEnableAutoReconnect"

// MARK: Restored state

/// The peripherals the manager was connected or connecting to, a `[CBPeripheral]`.
public let CBCentralManagerRestoredStatePeripheralsKey: String = "kCBRestoredPeripherals"

/// The services the manager was scanning for, a `[CBUUID]`.
public let CBCentralManagerRestoredStateScanServicesKey: String = "kCBRestoredScanServices"

/// The scan options the manager was using, a `[String: Any]`.
public let CBCentralManagerRestoredStateScanOptionsKey: String = "kCBRestoredScanOptions"
