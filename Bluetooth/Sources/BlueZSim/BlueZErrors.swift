import RxDBus

/// The error names BlueZ answers with (`org.bluez.Error.*`), for matching replies in tests and clients.
public enum BlueZErrorName {
    public static let failed = "org.bluez.Error.Failed"
    public static let inProgress = "org.bluez.Error.InProgress"
    public static let notReady = "org.bluez.Error.NotReady"
    public static let notPermitted = "org.bluez.Error.NotPermitted"
    public static let notAuthorized = "org.bluez.Error.NotAuthorized"
    public static let invalidValueLength = "org.bluez.Error.InvalidValueLength"
    public static let invalidOffset = "org.bluez.Error.InvalidOffset"
    public static let invalidArguments = "org.bluez.Error.InvalidArguments"
    public static let notSupported = "org.bluez.Error.NotSupported"
    public static let notConnected = "org.bluez.Error.NotConnected"
    public static let alreadyConnected = "org.bluez.Error.AlreadyConnected"
    public static let alreadyExists = "org.bluez.Error.AlreadyExists"
    public static let doesNotExist = "org.bluez.Error.DoesNotExist"
    public static let authenticationCanceled = "org.bluez.Error.AuthenticationCanceled"
}

/// BlueZ's error replies with the messages bluetoothd gives them (its `btd_error_*` helpers and the
/// GATT client's mapping of ATT error codes).
enum BlueZError {
    static func failed(_ message: String) -> DBusError { DBusError(name: BlueZErrorName.failed, message: message) }
    /// A second request while one is going (StartDiscovery by a client that has a session).
    static let busy = DBusError(name: BlueZErrorName.inProgress, message: "Operation already in progress")
    static let inProgress = DBusError(name: BlueZErrorName.inProgress, message: "In Progress")
    static let notReady = DBusError(name: BlueZErrorName.notReady, message: "Resource Not Ready")
    static func notPermitted(_ message: String) -> DBusError {
        DBusError(name: BlueZErrorName.notPermitted, message: message)
    }
    static let notAuthorized = DBusError(name: BlueZErrorName.notAuthorized, message: "Operation Not Authorized")
    static let notSupported = DBusError(name: BlueZErrorName.notSupported, message: "Operation is not supported")
    static let notConnected = DBusError(name: BlueZErrorName.notConnected, message: "Not Connected")
    static let alreadyExists = DBusError(name: BlueZErrorName.alreadyExists, message: "Already Exists")
    static let doesNotExist = DBusError(name: BlueZErrorName.doesNotExist, message: "Does Not Exist")
    static let invalidArguments = DBusError(
        name: BlueZErrorName.invalidArguments, message: "Invalid arguments in method call")
    /// The documented name for ATT's Invalid Attribute Value Length (bluetoothd itself has answered
    /// `InvalidArguments` "Invalid Length" since 5.5x; the documentation is what clients are written to).
    static let invalidValueLength = DBusError(name: BlueZErrorName.invalidValueLength, message: "Invalid Length")
    static let invalidOffset = DBusError(name: BlueZErrorName.invalidOffset, message: "Invalid offset")
    static let authenticationCanceled = DBusError(
        name: BlueZErrorName.authenticationCanceled, message: "Authentication Canceled")

    /// GATT operations on a device whose link is down.
    static let gattNotConnected = failed("Not connected")
    /// An LE connection attempt the controller gave up (bluetoothd's text for ECONNABORTED).
    static let connectionAborted = failed("le-connection-abort-by-local")
    /// A Connect cancelled by Disconnect or by the radio going off.
    static let connectionCanceled = failed("br-connection-canceled")
    /// An ATT request that the link's loss cut short.
    static let operationFailed = failed("Operation failed")
    /// Setting a mode of a powered-off adapter (the management interface's status text).
    static let notPowered = failed("Not Powered")
}
