import Foundation
import RxBluetoothKit

/// What the scan is doing, for the line above the list.
public enum ScanActivity: Equatable {
    case scanning
    /// Stopped with `s`.
    case stopped
    /// Paused while a device is open (BlueZ connects more reliably when it is not also discovering).
    case paused
    /// The radio cannot scan: off, not there, not ready.
    case unavailable(BluetoothState)
    /// The scan failed; the sentence says why.
    case failed(String)

    /// The line above the list, with the number of devices listed.
    public func text(devices: Int) -> String {
        let count = "\(devices) device\(devices == 1 ? "" : "s")"
        switch self {
        case .scanning: return "Scanning… \(count) · Enter connects · s stops"
        case .stopped: return "Scan stopped · \(count) · s scans again"
        case .paused: return "Scan paused while a device is open"
        case .unavailable(.poweredOff): return "Not scanning: the Bluetooth radio is off."
        case .unavailable(.unsupported): return "Not scanning: there is no Bluetooth adapter (BlueZ is not on the bus)."
        case .unavailable(.unauthorized): return "Not scanning: this program may not use Bluetooth."
        case .unavailable: return "Waiting for Bluetooth…"
        case .failed(let sentence): return "Scan stopped: \(sentence) Press s to try again."
        }
    }
}

/// What the scan screen shows: the devices and what the scan is doing.
public struct ScanScreenState {
    public var list: ScanList
    public var activity: ScanActivity
    /// The latest failure, numbered so that the same sentence twice is two failures.
    public var failure: Note?

    public init(forgetAfter: TimeInterval) {
        list = ScanList(forgetAfter: forgetAfter)
        activity = .unavailable(.unknown)
    }
}
