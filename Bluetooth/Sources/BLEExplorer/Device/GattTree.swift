import CoreBluetooth
import Foundation
import RxBluetoothKit

/// A service and its characteristics, as discovered, with the names the device gives those the SIG
/// did not name (their Characteristic User Description, 0x2901).
public struct GattService {
    public let service: Service
    public let characteristics: [Characteristic]
    public var userDescriptions: [AttributeKey: String] = [:]

    /// The name a person knows a characteristic by: the SIG's, else the device's user description.
    public func name(of characteristic: Characteristic) -> String? {
        characteristic.uuid.standardName ?? userDescriptions[characteristic.key]
    }

    /// How the screen names a characteristic (see ``GattRow/label(name:uuid:)``).
    public func label(of characteristic: Characteristic) -> String {
        GattRow.label(name: name(of: characteristic), uuid: characteristic.uuid)
    }
}

/// One line of the services → characteristics tree: a service, or one of its characteristics with its
/// properties and the last value known.
public struct GattRow {
    public enum Kind {
        case service(Service)
        case characteristic(Characteristic, isLast: Bool)
    }

    public let kind: Kind
    /// The name a person knows the service or characteristic by, if it has one.
    public let name: String?
    public let value: Data?
    public let isNotifying: Bool

    public var uuid: CBUUID {
        switch kind {
        case .service(let service): service.uuid
        case .characteristic(let characteristic, _): characteristic.uuid
        }
    }

    /// What the line calls it.
    public var label: String { GattRow.label(name: name, uuid: uuid) }

    public var characteristic: Characteristic? {
        if case .characteristic(let characteristic, _) = kind { return characteristic }
        return nil
    }

    /// `Heart Rate (180D)`, or `├ Heart Rate Measurement (2A37)  notify  ● 06 48  "·H"`.
    public var text: String {
        switch kind {
        case .service:
            return label
        case .characteristic(let characteristic, let isLast):
            let branch = isLast ? "└ " : "├ "
            let title = (branch + label).padded(to: 44)
            let properties = GattRow.properties(characteristic.properties).padded(to: 28)
            let marker = isNotifying ? "● " : "  "
            let shown = value.map { ValueText.describe($0) } ?? ""
            return "  \(title) \(properties) \(marker)\(shown)"
        }
    }

    /// `Heart Rate Measurement (2A37)` for a UUID the SIG named, the UUID alone for another.
    public static func label(_ uuid: CBUUID) -> String { label(name: uuid.standardName, uuid: uuid) }

    /// `Heart Rate Measurement (2A37)`, `On/Off (8E1A0002…)`; without a name, the whole UUID.
    public static func label(name: String?, uuid: CBUUID) -> String {
        name.map { "\($0) (\(shortUUID(uuid)))" } ?? uuid.uuidString
    }

    /// A 128-bit UUID by its first eight digits (`8E1A0002…`), which tell a vendor's characteristics
    /// apart; a SIG UUID whole.
    public static func shortUUID(_ uuid: CBUUID) -> String {
        let string = uuid.uuidString
        return string.count > 8 ? string.prefix(8) + "…" : string
    }

    /// `read write notify`: what the characteristic allows, in the order of the properties' bits.
    public static func properties(_ properties: CBCharacteristicProperties) -> String {
        let names: [(CBCharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-no-resp"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "signed-write"), (.extendedProperties, "extended"),
        ]
        return names.filter { properties.contains($0.0) }.map(\.1).joined(separator: " ")
    }
}

/// The key of a characteristic's value, notifications and so on: BlueZ's object path, unique per
/// characteristic even where two share a UUID.
public typealias AttributeKey = String

extension Characteristic {
    var key: AttributeKey { characteristic.objectPath }
    var canNotify: Bool { properties.contains(.notify) || properties.contains(.indicate) }
}
