/// The state of the local Bluetooth adapter, as a central or peripheral manager sees it.
///
/// A manager starts in ``unknown`` and reports the adapter's state as soon as it knows it; only in
/// ``poweredOn`` may it scan, connect or advertise.
public enum CBManagerState: Int, Sendable, Hashable {
    /// The state is not known yet; an update follows.
    case unknown = 0

    /// The connection to the Bluetooth service was lost for a moment; an update follows.
    case resetting = 1

    /// This machine has no Bluetooth Low Energy adapter.
    case unsupported = 2

    /// The program is not allowed to use Bluetooth.
    case unauthorized = 3

    /// The adapter is off.
    case poweredOff = 4

    /// The adapter is on and ready.
    case poweredOn = 5
}
