import Foundation
import RxBluetoothKit

/// What happens to the list of seen devices.
public enum ScanEvent {
    /// An advertisement, received at a time.
    case advertisement(ScannedPeripheral, at: Date)
    /// The clock, so that devices not seen for a while leave.
    case tick(Date)
    /// Nothing can be seen any more (the radio went off): the list empties.
    case cleared
}

/// The devices a scan has seen lately, by identifier. A device not seen for ``forgetAfter`` seconds
/// leaves: a peripheral that stopped advertising, or went out of range, would otherwise stay listed
/// with the signal it had when it was last heard.
public struct ScanList {
    public private(set) var devices: [UUID: SeenDevice] = [:]
    public let forgetAfter: TimeInterval

    public init(forgetAfter: TimeInterval) { self.forgetAfter = forgetAfter }

    public mutating func apply(_ event: ScanEvent) {
        switch event {
        case .advertisement(let scanned, let time):
            let identifier = scanned.peripheral.identifier
            devices[identifier] = SeenDevice(scanned, at: time, after: devices[identifier])
        case .tick(let now):
            devices = devices.filter { now.timeIntervalSince($0.value.lastSeen) < forgetAfter }
        case .cleared:
            devices = [:]
        }
    }

    /// `apply` as a `scan` accumulator.
    public func applying(_ event: ScanEvent) -> ScanList {
        var list = self
        list.apply(event)
        return list
    }
}
