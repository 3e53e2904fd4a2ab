import CoreBluetooth
import Foundation
import RxBluetoothKit

/// A peripheral the scan has seen: what its last advertisement said, when it came, and how strong its
/// last few were.
public struct SeenDevice {
    public let peripheral: Peripheral
    public var name: String?
    /// The last advertisement's RSSI, in dBm.
    public var rssi: Int
    /// The RSSI of the last ``averagedReports`` advertisements, oldest first.
    public var recentRSSI: [Int]
    /// The services it advertises.
    public var services: [CBUUID]
    public var lastSeen: Date

    /// How many advertisements the average RSSI is taken over: a signal bounces around by 10 dB and
    /// more from one advertisement to the next, and a list ordered by it would never stand still.
    public static let averagedReports = 6

    public init(_ scanned: ScannedPeripheral, at time: Date, after previous: SeenDevice? = nil) {
        peripheral = scanned.peripheral
        name = scanned.advertisementData.localName ?? scanned.peripheral.name
        rssi = scanned.rssi.intValue
        recentRSSI = Array(((previous?.recentRSSI ?? []) + [rssi]).suffix(Self.averagedReports))
        services = scanned.advertisementData.serviceUUIDs ?? []
        lastSeen = time
    }

    public var identifier: UUID { peripheral.identifier }
    public var address: String { peripheral.peripheral.address }

    /// The average of the recent RSSIs, rounded.
    public var averageRSSI: Int {
        guard !recentRSSI.isEmpty else { return rssi }
        return Int((Double(recentRSSI.reduce(0, +)) / Double(recentRSSI.count)).rounded())
    }
}
