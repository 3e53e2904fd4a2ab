import Foundation

/// The remote device a central talks to (CoreBluetooth's `CBPeripheral`, without its delegate: RxBluetoothKit's
/// `Peripheral` is the interface to it).
public final class CBPeripheral: @unchecked Sendable {
    /// Stable for a device across runs: see RxBluetoothKit's documentation of identifiers on Linux.
    public let identifier: UUID
    /// The BlueZ device object (`/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`). Linux only.
    public let objectPath: String
    /// The device's Bluetooth address (`AA:BB:CC:DD:EE:FF`). Linux only: CoreBluetooth hides it.
    public let address: String
    private let _name = Guarded<String?>(nil)
    private let _state = Guarded(CBPeripheralState.disconnected)
    private let _services = Guarded<[CBService]?>(nil)
    private let _canSendWriteWithoutResponse = Guarded(true)

    @_spi(BlueZ) public init(identifier: UUID, objectPath: String, address: String) {
        self.identifier = identifier
        self.objectPath = objectPath
        self.address = address
    }

    public var name: String? {
        get { _name.value }
        @_spi(BlueZ) set { _name.value = newValue }
    }

    public var state: CBPeripheralState {
        get { _state.value }
        @_spi(BlueZ) set { _state.value = newValue }
    }

    public var services: [CBService]? {
        get { _services.value }
        @_spi(BlueZ) set { _services.value = newValue }
    }

    public var canSendWriteWithoutResponse: Bool {
        get { _canSendWriteWithoutResponse.value }
        @_spi(BlueZ) set { _canSendWriteWithoutResponse.value = newValue }
    }
}
