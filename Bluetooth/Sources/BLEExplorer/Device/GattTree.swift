import CoreBluetooth
import Foundation
import RxBluetoothKit

/// A service and its characteristics, as discovered.
public struct GattService {
    public let service: Service
    public let characteristics: [Characteristic]
}

/// One line of the services → characteristics tree: a service, or one of its characteristics with its
/// properties and the last value known.
public struct GattRow {
    public enum Kind {
        case service(Service)
        case characteristic(Characteristic, isLast: Bool)
    }

    public let kind: Kind
    public let value: Data?
    public let isNotifying: Bool

    public var characteristic: Characteristic? {
        if case .characteristic(let characteristic, _) = kind { return characteristic }
        return nil
    }

    /// `Heart Rate (180D)`, or `├ Heart Rate Measurement (2A37)  notify  ● 06 48  "·H"`.
    public var text: String {
        switch kind {
        case .service(let service):
            return GattRow.label(service.uuid)
        case .characteristic(let characteristic, let isLast):
            let branch = isLast ? "└ " : "├ "
            let title = (branch + GattRow.label(characteristic.uuid)).padded(to: 44)
            let properties = GattRow.properties(characteristic.properties).padded(to: 26)
            let marker = isNotifying ? "● " : "  "
            let shown = value.map { ValueText.describe($0) } ?? ""
            return "  \(title) \(properties) \(marker)\(shown)"
        }
    }

    /// `Heart Rate Measurement (2A37)` for a UUID the SIG named, the UUID alone for another.
    public static func label(_ uuid: CBUUID) -> String {
        uuid.standardName.map { "\($0) (\(uuid.uuidString))" } ?? uuid.uuidString
    }

    /// `read write notify`: what the characteristic allows, in the order of the properties' bits.
    public static func properties(_ properties: CBCharacteristicProperties) -> String {
        let names: [(CBCharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-no-response"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "signed-write"), (.extendedProperties, "extended"),
        ]
        return names.filter { properties.contains($0.0) }.map(\.1).joined(separator: " ")
    }
}

/// The key of a characteristic's value, notifications and so on: BlueZ's object path, unique per
/// characteristic even where two share a UUID.
typealias AttributeKey = String

extension Characteristic {
    var key: AttributeKey { characteristic.objectPath }
    var canNotify: Bool { properties.contains(.notify) || properties.contains(.indicate) }
}
