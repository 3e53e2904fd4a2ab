/// Whether the program may share data over Bluetooth while in the background: the peripheral manager's
/// authorization from before ``CBManagerAuthorization``, which RxBluetoothKit's peripheral manager still
/// reports.
public enum CBPeripheralManagerAuthorizationStatus: Int, Sendable, Hashable {
    /// The user has not been asked yet.
    case notDetermined = 0

    /// The program may not share data, and the user cannot change that.
    case restricted = 1

    /// The program was refused.
    case denied = 2

    /// The program may share data.
    case authorized = 3
}
