import CoreBluetooth
import Foundation
import XCTest

final class PeripheralRoleTypesTests: XCTestCase {
    func testMutableAttributesKeepWhatTheProgramSets() {
        let service = CBMutableService(type: CBUUID(string: "180D"), primary: true)
        let characteristic = CBMutableCharacteristic(
            type: CBUUID(string: "2A38"), properties: [.read], value: Data([1]), permissions: [.readable])
        let description = CBMutableDescriptor(
            type: CBUUID(string: CBUUIDCharacteristicUserDescriptionString), value: "Location")
        characteristic.descriptors = [description]
        service.characteristics = [characteristic]
        XCTAssertTrue(service.isPrimary)
        XCTAssertEqual(service.uuid, CBUUID(string: "180D"))
        XCTAssertEqual(service.objectPath, "", "no path until a peripheral manager adds it")
        XCTAssertTrue(service.characteristics?.first === characteristic)
        XCTAssertEqual(characteristic.value, Data([1]))
        XCTAssertEqual(characteristic.permissions, [.readable])
        characteristic.value = Data([2])
        characteristic.properties = [.read, .notify]
        characteristic.permissions = [.readable, .writeable]
        XCTAssertEqual(characteristic.value, Data([2]))
        XCTAssertEqual(characteristic.properties, [.read, .notify])
        XCTAssertEqual(characteristic.permissions, [.readable, .writeable])
        XCTAssertNil(characteristic.subscribedCentrals)
        XCTAssertEqual(description.value as? Data, Data("Location".utf8))
        XCTAssertEqual(
            CBMutableDescriptor(type: CBUUID(string: "2904"), value: Data([4, 0])).value as? Data, Data([4, 0]))
    }

    func testPublishedFlagsCarryTheEncryptionPermissions() {
        let properties: CBCharacteristicProperties = [.read, .write, .notify]
        XCTAssertEqual(properties.bluezFlags(permissions: [.readable, .writeable]), ["read", "write", "notify"])
        XCTAssertEqual(
            properties.bluezFlags(permissions: [.readEncryptionRequired, .writeEncryptionRequired]),
            ["encrypt-read", "encrypt-write", "notify"])
    }

    func testServerErrorsAreTheOnesBlueZsGattServerMaps() {
        XCTAssertNil(CBATTError.Code.success.bluezServerError)
        let cases: [(CBATTError.Code, String, String)] = [
            (.readNotPermitted, "org.bluez.Error.NotPermitted", "Read not permitted"),
            (.writeNotPermitted, "org.bluez.Error.NotPermitted", "Write not permitted"),
            (.insufficientAuthorization, "org.bluez.Error.NotAuthorized", "Operation Not Authorized"),
            (.requestNotSupported, "org.bluez.Error.NotSupported", "Operation is not supported"),
            (.invalidOffset, "org.bluez.Error.InvalidOffset", "Invalid offset"),
            (.invalidAttributeValueLength, "org.bluez.Error.InvalidValueLength", "Invalid Length"),
            (.insufficientResources, "org.bluez.Error.Failed", "0x80"),
            (.unlikelyError, "org.bluez.Error.Failed", "0x80"),
        ]
        for (code, name, message) in cases {
            XCTAssertEqual(code.bluezServerError?.name, name, "\(code)")
            XCTAssertEqual(code.bluezServerError?.message, message, "\(code)")
        }
    }

    func testThePeripheralRoleNeedsNoAuthorizationOnLinux() {
        XCTAssertEqual(CBPeripheralManager.authorizationStatus(), .authorized)
    }
}
