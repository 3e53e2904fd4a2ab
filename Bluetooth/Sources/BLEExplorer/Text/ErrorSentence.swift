import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDBus

/// Failures as a person reads them: one sentence that names the device or the characteristic the way
/// the screen does (its name, else its address; the SIG's name, else the UUID) and says why in words.
///
/// `BluetoothError.description` puts the inner error after a colon as Swift prints it, which for a
/// `CBError` is the struct's dump; here the inner error is its own sentence (a `CBError`'s or
/// `CBATTError`'s localized description, BlueZ's message), lower-cased into the outer one.
public enum ErrorSentence {
    /// The sentence for `error`.
    public static func describe(_ error: Error) -> String {
        switch error {
        case let error as BluetoothError: describe(error)
        case let error as DBusError: describe(error)
        default: sentence(from: reason(error))
        }
    }

    static func describe(_ error: BluetoothError) -> String {
        switch error {
        case .destroyed: return "The Bluetooth manager went away while it was in use."
        case .scanInProgress: return "A scan is already running."
        case .bluetoothUnsupported: return "Bluetooth is not available: there is no BlueZ adapter on the bus."
        case .bluetoothUnauthorized: return "This program may not use Bluetooth."
        case .bluetoothPoweredOff: return "The Bluetooth radio is off."
        case .bluetoothInUnknownState: return "Bluetooth is not ready yet."
        case .bluetoothResetting: return "Bluetooth is restarting."
        case .peripheralIsAlreadyObservingConnection(let peripheral):
            return "\(name(of: peripheral)) is already being connected."
        case .peripheralConnectionFailed(let peripheral, let inner):
            return "Could not connect to \(name(of: peripheral))\(because(inner))."
        case .peripheralDisconnected(let peripheral, let inner):
            if inner == nil { return "Disconnected from \(name(of: peripheral))." }
            if let inner = inner as? CBError, inner.code == .peripheralDisconnected {
                return "The connection to \(name(of: peripheral)) was lost."
            }
            return "The connection to \(name(of: peripheral)) was lost\(because(inner))."
        case .servicesDiscoveryFailed(let peripheral, let inner):
            return "Could not discover the services of \(name(of: peripheral))\(because(inner))."
        case .characteristicsDiscoveryFailed(let service, let inner):
            return "Could not discover the characteristics of \(name(of: service.uuid))\(because(inner))."
        case .characteristicReadFailed(let characteristic, let inner):
            return "Reading \(name(of: characteristic.uuid)) failed\(because(inner))."
        case .characteristicWriteFailed(let characteristic, let inner):
            return "Writing \(name(of: characteristic.uuid)) failed\(because(inner))."
        case .characteristicNotifyChangeFailed(let characteristic, let inner),
            .characteristicSetNotifyValueFailed(let characteristic, let inner):
            return "Could not change the notifications of \(name(of: characteristic.uuid))\(because(inner))."
        default:
            return error.description
        }
    }

    static func describe(_ error: DBusError) -> String {
        switch error.name {
        case DBusError.disconnected: "The connection to the message bus was lost\(because(error))."
        case DBusError.noReply: "BlueZ did not answer in time."
        case DBusError.serviceUnknown: "BlueZ is not running (nobody owns org.bluez on the bus)."
        default: "BlueZ refused\(because(error))."
        }
    }

    /// The name a person knows a peripheral by: its name, else its address.
    public static func name(of peripheral: Peripheral) -> String {
        peripheral.name ?? peripheral.peripheral.address
    }

    /// The SIG's name of a UUID, else the UUID.
    public static func name(of uuid: CBUUID) -> String {
        uuid.standardName ?? uuid.uuidString
    }

    /// `": the reason"` for an inner error, or nothing without one.
    private static func because(_ inner: Error?) -> String {
        guard let inner else { return "" }
        let text = reason(inner)
        return text.isEmpty ? "" : ": " + text
    }

    /// An inner error as the end of a sentence: lower-cased first letter, no full stop.
    static func reason(_ error: Error) -> String {
        var text: String
        switch error {
        case let error as CBError:
            text = error.errorUserInfo[NSLocalizedDescriptionKey] as? String ?? "\(error.code)"
        case let error as CBATTError:
            text = error.errorUserInfo[NSLocalizedDescriptionKey] as? String ?? "\(error.code)"
        case let error as DBusError:
            text = error.message.isEmpty ? String(error.name.split(separator: ".").last ?? "") : error.message
        case let error as BluetoothError:
            text = describe(error)
        default:
            text = String(describing: error)
        }
        while text.hasSuffix(".") { text.removeLast() }
        guard let first = text.first, !startsWithAcronym(text) else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// "ATT …", "MTU …": a capital that belongs to an acronym stays.
    private static func startsWithAcronym(_ text: String) -> Bool {
        let prefix = text.prefix(2)
        return prefix.count == 2 && prefix.allSatisfy(\.isUppercase)
    }

    /// A reason as a sentence of its own: capital first letter, full stop.
    private static func sentence(from reason: String) -> String {
        guard let first = reason.first else { return "Something went wrong." }
        return first.uppercased() + reason.dropFirst() + "."
    }
}
