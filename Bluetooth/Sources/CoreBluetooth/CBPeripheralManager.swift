import Foundation

/// The local peripheral (CoreBluetooth's `CBPeripheralManager`, without its delegate: RxBluetoothKit's
/// `PeripheralManager` is the interface to it).
public final class CBPeripheralManager: @unchecked Sendable {
    private let _state = Guarded(CBManagerState.unknown)
    private let _isAdvertising = Guarded(false)

    @_spi(BlueZ) public init() {}

    public var state: CBManagerState {
        get { _state.value }
        @_spi(BlueZ) set { _state.value = newValue }
    }

    /// Whether an advertisement of this manager is registered with BlueZ.
    public var isAdvertising: Bool {
        get { _isAdvertising.value }
        @_spi(BlueZ) set { _isAdvertising.value = newValue }
    }

    /// Whether the program may share data in the background. Linux has no such permission.
    public static func authorizationStatus() -> CBPeripheralManagerAuthorizationStatus { .authorized }
}
