@_spi(BlueZ) import CoreBluetooth

/// The state of the Bluetooth radio as a manager sees it, CoreBluetooth's `CBManagerState` by another
/// name. On Linux it comes from BlueZ: `poweredOn`/`poweredOff` follow the adapter's `Powered`,
/// `unsupported` means no BlueZ on the bus or no such adapter, `unknown` is the state until BlueZ has
/// answered.
public enum BluetoothState: Int, Sendable {
    case unknown
    case resetting
    case unsupported
    case unauthorized
    case poweredOff
    case poweredOn

    public init(_ state: CBManagerState) {
        self = BluetoothState(rawValue: state.rawValue) ?? .unknown
    }

    var managerState: CBManagerState { CBManagerState(rawValue: rawValue) ?? .unknown }
}
