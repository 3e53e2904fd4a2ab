import CoreBluetooth
import Foundation
import XCTest

final class CBCharacteristicPropertiesTests: XCTestCase {
    private let all: [CBCharacteristicProperties] = [
        .broadcast, .read, .writeWithoutResponse, .write, .notify, .indicate, .authenticatedSignedWrites,
        .extendedProperties, .notifyEncryptionRequired, .indicateEncryptionRequired,
    ]

    func testRawValuesAreApples() {
        XCTAssertEqual(all.map(\.rawValue), [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200])
        XCTAssertEqual(CBCharacteristicProperties([.read, .notify]).rawValue, 0x12)
    }

    func testAttributePermissionRawValuesAreApples() {
        XCTAssertEqual(CBAttributePermissions.readable.rawValue, 1)
        XCTAssertEqual(CBAttributePermissions.writeable.rawValue, 2)
        XCTAssertEqual(CBAttributePermissions.readEncryptionRequired.rawValue, 4)
        XCTAssertEqual(CBAttributePermissions.writeEncryptionRequired.rawValue, 8)
    }

    func testEachBlueZFlag() {
        let expected: [String: CBCharacteristicProperties] = [
            "broadcast": .broadcast,
            "read": .read,
            "write-without-response": .writeWithoutResponse,
            "write": .write,
            "notify": .notify,
            "indicate": .indicate,
            "authenticated-signed-writes": .authenticatedSignedWrites,
            "extended-properties": .extendedProperties,
            "reliable-write": .extendedProperties,
            "writable-auxiliaries": .extendedProperties,
            "encrypt-read": .read,
            "encrypt-authenticated-read": .read,
            "secure-read": .read,
            "encrypt-write": .write,
            "encrypt-authenticated-write": .write,
            "secure-write": .write,
            "encrypt-notify": [.notify, .notifyEncryptionRequired],
            "encrypt-authenticated-notify": [.notify, .notifyEncryptionRequired],
            "secure-notify": [.notify, .notifyEncryptionRequired],
            "encrypt-indicate": [.indicate, .indicateEncryptionRequired],
            "encrypt-authenticated-indicate": [.indicate, .indicateEncryptionRequired],
            "secure-indicate": [.indicate, .indicateEncryptionRequired],
            "authorize": [],
        ]
        for (flag, properties) in expected {
            XCTAssertEqual(CBCharacteristicProperties(bluezFlags: [flag]), properties, flag)
        }
    }

    func testBlueZFlagsOfARemoteCharacteristic() {
        // What BlueZ reports for a heart rate measurement and for a Nordic UART RX characteristic.
        XCTAssertEqual(CBCharacteristicProperties(bluezFlags: ["notify"]), .notify)
        XCTAssertEqual(
            CBCharacteristicProperties(bluezFlags: ["write-without-response", "write"]),
            [.writeWithoutResponse, .write])
        XCTAssertEqual(
            CBCharacteristicProperties(bluezFlags: ["read", "write", "extended-properties", "reliable-write"]),
            [.read, .write, .extendedProperties])
    }

    func testUnknownBlueZFlagsAreIgnored() {
        XCTAssertEqual(CBCharacteristicProperties(bluezFlags: ["read", "teleport", ""]), .read)
        XCTAssertEqual(CBCharacteristicProperties(bluezFlags: [String]()), [])
    }

    func testToBlueZFlags() {
        XCTAssertEqual(CBCharacteristicProperties([]).bluezFlags, [])
        XCTAssertEqual(
            CBCharacteristicProperties([.read, .write, .notify]).bluezFlags, ["read", "write", "notify"])
        XCTAssertEqual(
            CBCharacteristicProperties([.notify, .notifyEncryptionRequired]).bluezFlags, ["encrypt-notify"])
        XCTAssertEqual(CBCharacteristicProperties.indicateEncryptionRequired.bluezFlags, ["encrypt-indicate"])
        XCTAssertEqual(
            CBCharacteristicProperties(rawValue: 0xFF).bluezFlags,
            [
                "broadcast", "read", "write-without-response", "write", "notify", "indicate",
                "authenticated-signed-writes", "extended-properties",
            ])
    }

    func testBlueZFlagsRoundTripForEveryCombination() {
        for raw in UInt(0)..<0x400 {
            let properties = CBCharacteristicProperties(rawValue: raw)
            var expected = properties
            if properties.contains(.notifyEncryptionRequired) { expected.insert(.notify) }
            if properties.contains(.indicateEncryptionRequired) { expected.insert(.indicate) }
            XCTAssertEqual(
                CBCharacteristicProperties(bluezFlags: properties.bluezFlags), expected, String(raw, radix: 16))
        }
    }

    func testBlueZFlagsAreTheDocumentedOnes() {
        let documented: Set<String> = [
            "broadcast", "read", "write-without-response", "write", "notify", "indicate",
            "authenticated-signed-writes", "extended-properties", "reliable-write", "writable-auxiliaries",
            "encrypt-read", "encrypt-write", "encrypt-notify", "encrypt-indicate", "encrypt-authenticated-read",
            "encrypt-authenticated-write", "encrypt-authenticated-notify", "encrypt-authenticated-indicate",
            "secure-read", "secure-write", "secure-notify", "secure-indicate", "authorize",
        ]
        for raw in UInt(0)..<0x400 {
            XCTAssertTrue(Set(CBCharacteristicProperties(rawValue: raw).bluezFlags).isSubset(of: documented))
        }
    }

    func testWriteTypes() {
        XCTAssertEqual(CBCharacteristicWriteType.withResponse.rawValue, 0)
        XCTAssertEqual(CBCharacteristicWriteType.withoutResponse.rawValue, 1)
        XCTAssertEqual(CBCharacteristicWriteType.withResponse.bluezWriteType, "request")
        XCTAssertEqual(CBCharacteristicWriteType.withoutResponse.bluezWriteType, "command")
    }
}
