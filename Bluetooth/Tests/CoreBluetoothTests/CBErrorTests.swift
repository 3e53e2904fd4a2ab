import CoreBluetooth
import Foundation
import XCTest

final class CBErrorTests: XCTestCase {
    func testATTCodesHaveTheProtocolsValues() {
        let codes: [CBATTError.Code] = [
            .success, .invalidHandle, .readNotPermitted, .writeNotPermitted, .invalidPdu, .insufficientAuthentication,
            .requestNotSupported, .invalidOffset, .insufficientAuthorization, .prepareQueueFull, .attributeNotFound,
            .attributeNotLong, .insufficientEncryptionKeySize, .invalidAttributeValueLength, .unlikelyError,
            .insufficientEncryption, .unsupportedGroupType, .insufficientResources,
        ]
        XCTAssertEqual(codes.map(\.rawValue), Array(0...17))
        XCTAssertNil(CBATTError.Code(rawValue: 18))
    }

    func testCBErrorCodesHaveApplesValues() {
        let codes: [CBError.Code] = [
            .unknown, .invalidParameters, .invalidHandle, .notConnected, .outOfSpace, .operationCancelled,
            .connectionTimeout, .peripheralDisconnected, .uuidNotAllowed, .alreadyAdvertising, .connectionFailed,
            .connectionLimitReached, .unknownDevice, .operationNotSupported, .peerRemovedPairingInformation,
            .encryptionTimedOut, .tooManyLEPairedDevices, .leGattExceededBackgroundNotificationLimit,
            .leGattNearBackgroundNotificationLimit,
        ]
        XCTAssertEqual(codes.map(\.rawValue), Array(0...18))
    }

    func testStaticMembersAreCodes() {
        XCTAssertEqual(CBATTError.readNotPermitted, CBATTError.Code.readNotPermitted)
        XCTAssertEqual(CBATTError.insufficientResources.rawValue, 17)
        XCTAssertEqual(CBError.peripheralDisconnected, CBError.Code.peripheralDisconnected)
        XCTAssertEqual(CBError.operationNotSupported.rawValue, 13)
        XCTAssertEqual(CBATTError(.writeNotPermitted).code, CBATTError.writeNotPermitted)
    }

    func testCatchPatternsMatchByCode() {
        func fail(_ error: any Error) throws { throw error }

        var caught = ""
        do { try fail(CBATTError(.readNotPermitted)) } catch CBATTError.writeNotPermitted {
            caught = "write"
        } catch CBATTError.readNotPermitted {
            caught = "read"
        } catch {
            caught = "other"
        }
        XCTAssertEqual(caught, "read")

        do { try fail(CBError(.peripheralDisconnected)) } catch CBATTError.readNotPermitted {
            caught = "att"
        } catch CBError.peripheralDisconnected {
            caught = "disconnected"
        } catch {
            caught = "other"
        }
        XCTAssertEqual(caught, "disconnected")

        do { try fail(CocoaError(.fileNoSuchFile)) } catch CBError.unknown {
            caught = "unknown"
        } catch {
            caught = "other"
        }
        XCTAssertEqual(caught, "other")
    }

    func testSwitchOverCodes() {
        let error: any Error = CBATTError(.insufficientEncryption)
        switch error {
        case CBATTError.insufficientAuthentication: XCTFail("wrong code")
        case CBATTError.insufficientEncryption: break
        default: XCTFail("not matched")
        }
    }

    func testDomainsAndCodes() {
        XCTAssertEqual(CBErrorDomain, "CBErrorDomain")
        XCTAssertEqual(CBATTErrorDomain, "CBATTErrorDomain")
        XCTAssertEqual(CBError.errorDomain, "CBErrorDomain")
        XCTAssertEqual(CBATTError.errorDomain, "CBATTErrorDomain")
        XCTAssertEqual(CBATTError(.invalidOffset).errorCode, 7)
        XCTAssertEqual(CBError(.connectionTimeout).errorCode, 6)
    }

    func testBridgesToNSError() {
        let att = CBATTError(.invalidAttributeValueLength) as NSError
        XCTAssertEqual(att.domain, "CBATTErrorDomain")
        XCTAssertEqual(att.code, 13)
        let cb = CBError(.notConnected) as NSError
        XCTAssertEqual(cb.domain, "CBErrorDomain")
        XCTAssertEqual(cb.code, 3)
    }

    func testLocalizedDescription() {
        XCTAssertEqual(CBATTError(.readNotPermitted).localizedDescription, "The attribute cannot be read.")
        XCTAssertEqual(
            CBError(.notConnected, userInfo: [NSLocalizedDescriptionKey: "Gone"]).localizedDescription, "Gone")
        for raw in 0...18 {
            XCTAssertFalse(CBError(CBError.Code(rawValue: raw)!).localizedDescription.isEmpty)
        }
    }

    func testEqualityIsByCode() {
        XCTAssertEqual(CBATTError(.readNotPermitted), CBATTError(.readNotPermitted, userInfo: ["x": 1]))
        XCTAssertNotEqual(CBATTError(.readNotPermitted), CBATTError(.writeNotPermitted))
        XCTAssertEqual(Set([CBError(.unknown), CBError(.unknown, userInfo: ["x": "y"])]).count, 1)
    }

    func testErrorsCrossIsolationDomains() async {
        let error = CBATTError(.insufficientAuthorization, userInfo: ["attempt": 2])
        let code = await Task.detached { error.code }.value
        XCTAssertEqual(code, .insufficientAuthorization)
    }
}
