@_spi(BlueZ) import CoreBluetooth
import Foundation
import RxDBus
import Synchronization

/// BlueZ's object tree as last received, with the questions the manager asks of it. Updated on the
/// manager's delivery scheduler; read from anywhere.
final class BlueZModel: Sendable {
    let adapterPath: DBusObjectPath
    private let state = Mutex<DBusManagedObjects?>(nil)

    init(adapterPath: DBusObjectPath) { self.adapterPath = adapterPath }

    /// A tree after a change (applied to the model's own copy, in place), a whole new tree (no
    /// change), or `nil` when BlueZ is not on the bus.
    func update(_ tree: DBusObjectTree?) {
        state.withLock { objects in
            guard let tree else {
                objects = nil
                return
            }
            if let change = tree.change, objects != nil {
                objects!.apply(change)
            } else {
                objects = tree.objects
            }
        }
    }

    var bluetoothState: BluetoothState {
        state.withLock { objects in
            guard let objects else { return .unsupported }
            guard let adapter = objects[adapterPath]?[BlueZ.adapter] else { return .unsupported }
            // BlueZ (5.65 and later) says "on-disabling" before it ends the adapter's connections and
            // discovery for a power-off: from then on the radio counts as off, so that what ends next
            // ends for that reason, as on Apple's platforms.
            let powered = adapter["Powered"]?.bool == true && adapter["PowerState"]?.string != "on-disabling"
            return powered ? .poweredOn : .poweredOff
        }
    }

    var adapterAddress: String { properties(adapterPath, BlueZ.adapter)?["Address"]?.string ?? "00:00:00:00:00:00" }

    func properties(_ path: DBusObjectPath, _ interface: String) -> [String: DBusValue]? {
        state.withLock { $0?[path]?[interface] }
    }

    /// The objects directly below `path` with `interface`, in path order (BlueZ's handle order).
    func children(of path: DBusObjectPath, with interface: String) -> [(DBusObjectPath, [String: DBusValue])] {
        state.withLock { objects in
            guard let objects else { return [] }
            return objects.compactMap { entry in
                entry.key.parent == path ? entry.value[interface].map { (entry.key, $0) } : nil
            }.sorted { $0.0 < $1.0 }
        }
    }

    /// The devices of this adapter.
    var devices: [(DBusObjectPath, [String: DBusValue])] { children(of: adapterPath, with: BlueZ.device) }

    /// The device path of an address (`/org/bluez/hci0/dev_AA_BB_…`).
    func devicePath(address: String) -> DBusObjectPath {
        adapterPath.appending("dev_" + address.replacingOccurrences(of: ":", with: "_"))
    }
}

extension Dictionary where Key == String, Value == DBusValue {
    /// A UUID list property (`UUIDs`), as CBUUIDs.
    var uuids: [CBUUID] { (self["UUIDs"]?.strings ?? []).compactMap { CBUUID(validating: $0) } }
}
