import CoreBluetooth
import Foundation
import XCTest

final class BlueZErrorMappingTests: XCTestCase {
    // MARK: ATT errors

    func testBlueZGATTClientErrors() {
        // The replies of BlueZ's GATT client (src/gatt-client.c) when the remote server refuses a request.
        let cases: [(name: String, message: String?, code: CBATTError.Code)] = [
            ("org.bluez.Error.NotPermitted", "Read not permitted", .readNotPermitted),
            ("org.bluez.Error.NotPermitted", "Write not permitted", .writeNotPermitted),
            ("org.bluez.Error.NotPermitted", "Not paired", .insufficientAuthentication),
            ("org.bluez.Error.InvalidArguments", "Invalid offset", .invalidOffset),
            ("org.bluez.Error.InvalidArguments", "Invalid Length", .invalidAttributeValueLength),
            ("org.bluez.Error.NotAuthorized", "Operation Not Authorized", .insufficientAuthorization),
            ("org.bluez.Error.NotSupported", "Operation is not supported", .requestNotSupported),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x0e", .unlikelyError),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x11", .insufficientResources),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x0A", .attributeNotFound),
        ]
        for (name, message, code) in cases {
            XCTAssertEqual(CBATTError(bluezErrorName: name, message: message)?.code, code, "\(name) \(message ?? "")")
        }
    }

    func testDocumentedServerErrorNames() {
        // The names the GATT API documents for ReadValue and WriteValue.
        XCTAssertEqual(CBATTError(bluezErrorName: "org.bluez.Error.InvalidOffset")?.code, .invalidOffset)
        XCTAssertEqual(
            CBATTError(bluezErrorName: "org.bluez.Error.InvalidValueLength")?.code, .invalidAttributeValueLength)
        XCTAssertEqual(CBATTError(bluezErrorName: "org.bluez.Error.NotAuthorized")?.code, .insufficientAuthorization)
        XCTAssertEqual(CBATTError(bluezErrorName: "org.bluez.Error.NotSupported")?.code, .requestNotSupported)
    }

    func testNotPermittedWithoutAKnownMessageFollowsTheOperation() {
        XCTAssertEqual(CBATTError(bluezErrorName: "org.bluez.Error.NotPermitted")?.code, .readNotPermitted)
        XCTAssertEqual(
            CBATTError(bluezErrorName: "org.bluez.Error.NotPermitted", isWrite: true)?.code, .writeNotPermitted)
        XCTAssertEqual(
            CBATTError(bluezErrorName: "org.bluez.Error.NotPermitted", message: "Nope", isWrite: true)?.code,
            .writeNotPermitted)
        // The message wins over the operation.
        XCTAssertEqual(
            CBATTError(bluezErrorName: "org.bluez.Error.NotPermitted", message: "Read not permitted", isWrite: true)?
                .code,
            .readNotPermitted)
    }

    func testShortNamesAreAccepted() {
        XCTAssertEqual(
            CBATTError(bluezErrorName: "NotPermitted", message: "Write not permitted")?.code, .writeNotPermitted)
        XCTAssertEqual(CBError(bluezErrorName: "NotConnected")?.code, .notConnected)
    }

    func testErrorsThatAreNotTheServersAnswerAreNotATTErrors() {
        let cases: [(String, String?)] = [
            ("org.bluez.Error.NotPermitted", "Write acquired"),
            ("org.bluez.Error.NotPermitted", "Notify acquired"),
            ("org.bluez.Error.InvalidArguments", nil),
            ("org.bluez.Error.InvalidArguments", "Invalid arguments in method call"),
            ("org.bluez.Error.Failed", "Not connected"),
            ("org.bluez.Error.Failed", "Operation failed"),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x80"),  // an application's error
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x00"),
            ("org.bluez.Error.Failed", "Operation failed with ATT error: zz"),
            ("org.bluez.Error.Failed", nil),
            ("org.bluez.Error.InProgress", "In Progress"),
            ("org.bluez.Error.NotConnected", "Not Connected"),
            ("org.bluez.Error.ImproperlyConfigured", nil),
            ("org.bluez.Error.DoesNotExist", nil),
            ("org.freedesktop.DBus.Error.UnknownObject", nil),
            ("org.freedesktop.DBus.Error.NoReply", nil),
        ]
        for (name, message) in cases {
            XCTAssertNil(CBATTError(bluezErrorName: name, message: message), "\(name) \(message ?? "")")
        }
    }

    func testMappedErrorKeepsTheDBusErrorForDebugging() {
        let error = CBATTError(bluezErrorName: "org.bluez.Error.NotPermitted", message: "Read not permitted")
        XCTAssertEqual(
            error?.userInfo[NSDebugDescriptionErrorKey] as? String, "org.bluez.Error.NotPermitted: Read not permitted")
    }

    func testClientErrorRoundTrips() {
        for raw in 1...17 {
            let code = CBATTError.Code(rawValue: raw)!
            let reply = code.bluezClientError
            XCTAssertTrue(reply.name.hasPrefix("org.bluez.Error."))
            let expected: CBATTError.Code =
                switch code {
                case .insufficientEncryption, .insufficientEncryptionKeySize: .insufficientAuthentication
                default: code
                }
            XCTAssertEqual(CBATTError(bluezErrorName: reply.name, message: reply.message)?.code, expected, "\(code)")
        }
        XCTAssertNil(
            CBATTError(
                bluezErrorName: CBATTError.Code.success.bluezClientError.name,
                message: CBATTError.Code.success.bluezClientError.message))
    }

    func testClientErrorsAreBlueZs() {
        XCTAssertTrue(
            CBATTError.Code.readNotPermitted.bluezClientError == ("org.bluez.Error.NotPermitted", "Read not permitted"))
        XCTAssertTrue(
            CBATTError.Code.unlikelyError.bluezClientError
                == ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x0e"))
        XCTAssertTrue(
            CBATTError.Code.invalidAttributeValueLength.bluezClientError
                == ("org.bluez.Error.InvalidArguments", "Invalid Length"))
    }

    // MARK: Stack errors

    func testStackErrors() {
        let cases: [(name: String, message: String?, code: CBError.Code)] = [
            ("org.bluez.Error.NotConnected", nil, .notConnected),
            ("org.bluez.Error.Failed", "Not connected", .notConnected),
            ("org.bluez.Error.Failed", "le-connection-timeout", .connectionTimeout),
            ("org.bluez.Error.Failed", "br-connection-page-timeout", .connectionTimeout),
            ("org.bluez.Error.Failed", "le-connection-abort-by-remote", .peripheralDisconnected),
            ("org.bluez.Error.Failed", "le-connection-abort-by-local", .operationCancelled),
            ("org.bluez.Error.Failed", "br-connection-canceled", .operationCancelled),
            ("org.bluez.Error.Failed", "le-connection-concurrent-connection-limit", .connectionLimitReached),
            ("org.bluez.Error.Failed", "le-connection-key-missing", .peerRemovedPairingInformation),
            ("org.bluez.Error.Failed", "le-connection-refused", .connectionFailed),
            ("org.bluez.Error.Failed", "le-connection-unknown", .connectionFailed),
            ("org.bluez.Error.Failed", "Operation failed", .unknown),
            ("org.bluez.Error.Failed", nil, .unknown),
            ("org.bluez.Error.ConnectionAttemptFailed", "Page Timeout", .connectionFailed),
            ("org.bluez.Error.AuthenticationTimeout", nil, .encryptionTimedOut),
            ("org.bluez.Error.DoesNotExist", "Does Not Exist", .unknownDevice),
            ("org.bluez.Error.InvalidArguments", "Invalid arguments in method call", .invalidParameters),
            ("org.bluez.Error.InvalidLength", nil, .invalidParameters),
            ("org.bluez.Error.NotSupported", nil, .operationNotSupported),
        ]
        for (name, message, code) in cases {
            XCTAssertEqual(CBError(bluezErrorName: name, message: message)?.code, code, "\(name) \(message ?? "")")
        }
    }

    func testATTAnswersAreNotStackErrors() {
        let cases: [(String, String?)] = [
            ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x0e"),
            ("org.bluez.Error.InvalidArguments", "Invalid offset"),
            ("org.bluez.Error.InvalidArguments", "Invalid Length"),
            ("org.bluez.Error.NotPermitted", "Read not permitted"),
            ("org.bluez.Error.NotAuthorized", nil),
            ("org.bluez.Error.InProgress", nil),
            ("org.bluez.Error.AlreadyConnected", nil),
            ("org.bluez.Error.AlreadyExists", nil),
            ("org.bluez.Error.NotReady", nil),
            ("org.freedesktop.DBus.Error.ServiceUnknown", nil),
        ]
        for (name, message) in cases {
            XCTAssertNil(CBError(bluezErrorName: name, message: message), "\(name) \(message ?? "")")
        }
    }
}
