import Foundation

/// The local central (CoreBluetooth's `CBCentralManager`, without its delegate: RxBluetoothKit's
/// `CentralManager` is the interface to it).
public final class CBCentralManager: @unchecked Sendable {
    private let _state = Guarded(CBManagerState.unknown)
    private let _isScanning = Guarded(false)

    @_spi(BlueZ) public init() {}

    public var state: CBManagerState {
        get { _state.value }
        @_spi(BlueZ) set { _state.value = newValue }
    }

    public var isScanning: Bool {
        get { _isScanning.value }
        @_spi(BlueZ) set { _isScanning.value = newValue }
    }
}
