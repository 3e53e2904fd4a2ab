/// Whether the program may use Bluetooth.
///
/// On Apple's platforms the user grants this. On Linux no user is asked: the system bus's policy decides
/// whether a process may talk to BlueZ, so only ``allowedAlways`` and ``denied`` describe it.
public enum CBManagerAuthorization: Int, Sendable, Hashable {
    /// The user has not been asked yet.
    case notDetermined = 0

    /// The program may not use Bluetooth, and the user cannot change that.
    case restricted = 1

    /// The program was refused the use of Bluetooth.
    case denied = 2

    /// The program may use Bluetooth at any time.
    case allowedAlways = 3
}
