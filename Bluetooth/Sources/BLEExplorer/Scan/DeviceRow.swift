import CoreBluetooth
import Foundation
import RxBluetoothKit
import RxDataSources

/// One row of the scan list: a device's name (or address), its signal as bars and dBm, and the
/// services it advertises by their SIG names.
///
/// Its identity is the peripheral's, so a device that advertises again is the same row; two rows are
/// equal when they show the same line, so a new RSSI updates the row in place.
public struct DeviceRow: IdentifiableType, Equatable {
    public let peripheral: Peripheral
    public let name: String?
    public let address: String
    public let rssi: Int
    /// The average over the last few advertisements: what the list is ordered by.
    public let averageRSSI: Int
    public let services: [String]

    public init(_ device: SeenDevice) {
        peripheral = device.peripheral
        name = device.name
        address = device.address
        rssi = device.rssi
        averageRSSI = device.averageRSSI
        // Generic Access and Generic Attribute are in every GATT database and say nothing of the device;
        // BlueZ lists them among its UUIDs once it has been connected.
        services = device.services.filter { !Self.omitted.contains($0) }.map(ErrorSentence.name(of:))
    }

    public var identity: UUID { peripheral.identifier }

    static let omitted: Set<CBUUID> = [CBUUID(string: "1800"), CBUUID(string: "1801")]

    /// `HRM Sim   C4:7C:8D:6A:10:01  ▂▄▆·  -62 dBm  Heart Rate, Battery`: the bars and dBm of the last
    /// advertisement.
    public var text: String {
        let title = (name ?? "(no name)").padded(to: 24)
        let advertised = services.isEmpty ? "" : services.joined(separator: ", ")
        return "\(title) \(address)  \(SignalBars.text(rssi)) \(String(rssi).leftPadded(to: 4)) dBm  \(advertised)"
    }

    public static func == (lhs: DeviceRow, rhs: DeviceRow) -> Bool {
        lhs.identity == rhs.identity && lhs.name == rhs.name && lhs.rssi == rhs.rssi && lhs.services == rhs.services
    }
}

/// The scan list's two groups: devices that advertise services (what an explorer is usually after)
/// first, the rest after.
public enum DeviceGroup: String, IdentifiableType, CaseIterable {
    case offeringServices = "Advertising services"
    case other = "Other devices"

    public var identity: String { rawValue }
}

public typealias DeviceSection = AnimatableSectionModel<DeviceGroup, DeviceRow>

extension DeviceSection {
    /// `Advertising services · 3`.
    public var header: String { "\(model.rawValue) · \(items.count)" }
}

extension ScanList {
    /// The list as sections, empty groups left out. Within a group, the strongest signal first, by the
    /// average of the last few advertisements, so that a row moves when a device comes nearer or goes
    /// away rather than at every advertisement; then by name and address, so that the order is stable.
    public var sections: [DeviceSection] {
        let rows = devices.values.map(DeviceRow.init).sorted { a, b in
            if a.averageRSSI != b.averageRSSI { return a.averageRSSI > b.averageRSSI }
            if a.name != b.name { return (a.name ?? "\u{10FFFF}") < (b.name ?? "\u{10FFFF}") }
            return a.address < b.address
        }
        return DeviceGroup.allCases.compactMap { group in
            let members = rows.filter { ($0.services.isEmpty ? DeviceGroup.other : .offeringServices) == group }
            return members.isEmpty ? nil : DeviceSection(model: group, items: members)
        }
    }
}

extension String {
    /// The string with spaces after it up to `width` characters (a longer one pushes what follows).
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The string with spaces before it up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
