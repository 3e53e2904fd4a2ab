@_spi(BlueZ) import CoreBluetooth
import RxDBus

/// The `CBCentral`s of requests. BlueZ passes a read's or a write's device (its object path) and the
/// link's MTU in the call's options; a central's identifier is made from the adapter's and the device's
/// addresses as a peripheral's is (``PeripheralIdentity``, with the address type taken as public: the
/// options do not carry it). `StartNotify` and `StopNotify` carry no options, so their central is one that
/// stands for every subscriber: the identifier of device `00:00:00:00:00:00`.
struct Centrals: Sendable {
    /// The adapter's address, read when a request comes (BlueZ's tree may arrive after the manager).
    let adapterAddress: @Sendable () -> String

    /// The smallest ATT MTU's notification payload, for a central whose MTU BlueZ does not give.
    static let defaultUpdateLength = 20

    func central(options: [String: DBusValue]) -> CBCentral {
        let device = options["device"]?.objectPath.map(Self.address(of:)) ?? "00:00:00:00:00:00"
        let mtu = options["mtu"]?.integer.map(Int.init)
        return CBCentral(
            identifier: PeripheralIdentity.identifier(adapter: adapterAddress(), device: device, randomAddress: false),
            maximumUpdateValueLength: mtu.map { max($0 - 3, 1) } ?? Self.defaultUpdateLength)
    }

    /// The central that stands for all subscribers of a characteristic.
    var subscribers: CBCentral { central(options: [:]) }

    /// `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF` → `AA:BB:CC:DD:EE:FF`.
    private static func address(of path: DBusObjectPath) -> String {
        String(path.lastElement.dropFirst(4)).replacingOccurrences(of: "_", with: ":")
    }
}
