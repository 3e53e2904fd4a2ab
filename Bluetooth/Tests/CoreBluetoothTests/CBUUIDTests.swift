import CoreBluetooth
import Foundation
import XCTest

final class CBUUIDTests: XCTestCase {
    private let heartRate128 = "0000180D-0000-1000-8000-00805F9B34FB"

    // MARK: Strings

    func test16BitStringRoundTrips() {
        let uuid = CBUUID(string: "180D")
        XCTAssertEqual(uuid.uuidString, "180D")
        XCTAssertEqual(uuid.data, Data([0x18, 0x0D]))
        XCTAssertEqual(uuid.assignedNumber, 0x180D)
        XCTAssertEqual(CBUUID(string: uuid.uuidString), uuid)
    }

    func test16BitStringIsCaseInsensitiveAndShownUpperCase() {
        XCTAssertEqual(CBUUID(string: "2a37").uuidString, "2A37")
        XCTAssertEqual(CBUUID(string: "2a37"), CBUUID(string: "2A37"))
    }

    func test32BitStringRoundTrips() {
        let uuid = CBUUID(string: "1234abCD")
        XCTAssertEqual(uuid.uuidString, "1234ABCD")
        XCTAssertEqual(uuid.data, Data([0x12, 0x34, 0xAB, 0xCD]))
        XCTAssertEqual(uuid.assignedNumber, 0x1234_ABCD)
        XCTAssertEqual(uuid.fullUUIDString, "1234abcd-0000-1000-8000-00805f9b34fb")
        XCTAssertEqual(CBUUID(string: uuid.uuidString), uuid)
    }

    func test32BitStringOfA16BitValueIsThe16BitUUID() {
        let uuid = CBUUID(string: "0000180D")
        XCTAssertEqual(uuid, CBUUID(string: "180D"))
        XCTAssertEqual(uuid.uuidString, "180D")
        XCTAssertEqual(uuid.data.count, 2)
    }

    func test128BitStringRoundTrips() {
        let string = "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"
        let uuid = CBUUID(string: string)
        XCTAssertEqual(uuid.uuidString, string)
        XCTAssertNil(uuid.assignedNumber)
        XCTAssertEqual(
            uuid.data,
            Data([0x6E, 0x40, 0x00, 0x01, 0xB5, 0xA3, 0xF3, 0x93, 0xE0, 0xA9, 0xE5, 0x0E, 0x24, 0xDC, 0xCA, 0x9E]))
        XCTAssertEqual(uuid.fullUUIDString, string.lowercased())
        XCTAssertEqual(CBUUID(string: uuid.uuidString), uuid)
        XCTAssertEqual(CBUUID(string: uuid.fullUUIDString), uuid)
    }

    func test128BitStringIsCaseInsensitive() {
        XCTAssertEqual(
            CBUUID(string: "6e400001-b5a3-f393-e0a9-e50e24dcca9e").uuidString, "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
    }

    func test128BitStringOnTheBaseUUIDIsShownShort() {
        XCTAssertEqual(CBUUID(string: heartRate128).uuidString, "180D")
        XCTAssertEqual(CBUUID(string: heartRate128.lowercased()).uuidString, "180D")
        XCTAssertEqual(CBUUID(string: "ABCDEF01-0000-1000-8000-00805F9B34FB").uuidString, "ABCDEF01")
        XCTAssertEqual(CBUUID(string: heartRate128).data, Data([0x18, 0x0D]))
    }

    func testAlmostBaseUUIDsStayLong() {
        // One bit off the base UUID, in each half: not a short UUID.
        for string in ["0000180D-0000-1000-8000-00805F9B34FC", "0000180D-0001-1000-8000-00805F9B34FB"] {
            let uuid = CBUUID(string: string)
            XCTAssertNil(uuid.assignedNumber, string)
            XCTAssertEqual(uuid.uuidString, string)
            XCTAssertNotEqual(uuid, CBUUID(string: "180D"))
        }
    }

    func testFullUUIDStringIsLowerCase128Bit() {
        XCTAssertEqual(CBUUID(string: "180D").fullUUIDString, "0000180d-0000-1000-8000-00805f9b34fb")
        XCTAssertEqual(CBUUID(string: "2902").fullUUIDString, "00002902-0000-1000-8000-00805f9b34fb")
    }

    // MARK: Data

    func testDataRoundTripsForEachWidth() {
        let samples: [Data] = [
            Data([0x2A, 0x19]),
            Data([0xDE, 0xAD, 0xBE, 0xEF]),
            Data((0..<16).map { UInt8($0 * 17) }),
        ]
        for data in samples {
            let uuid = CBUUID(data: data)
            XCTAssertEqual(uuid.data, data)
            XCTAssertEqual(CBUUID(data: uuid.data), uuid)
            XCTAssertEqual(CBUUID(string: uuid.uuidString), uuid)
        }
    }

    func testDataIsBigEndian() {
        XCTAssertEqual(CBUUID(data: Data([0x2A, 0x19])).uuidString, "2A19")
        XCTAssertEqual(CBUUID(data: Data([0x00, 0x00, 0x2A, 0x19])), CBUUID(string: "2A19"))
    }

    func testDataOf128BitBaseUUIDIsShort() {
        let bytes: [UInt8] = [0, 0, 0x18, 0x0D, 0, 0, 0x10, 0, 0x80, 0, 0, 0x80, 0x5F, 0x9B, 0x34, 0xFB]
        let uuid = CBUUID(data: Data(bytes))
        XCTAssertEqual(uuid, CBUUID(string: "180D"))
        XCTAssertEqual(uuid.data, Data([0x18, 0x0D]))
    }

    func testDataSliceWithNonZeroStartIndex() {
        let packet = Data([0xFF, 0xFF, 0x18, 0x0F])
        XCTAssertEqual(CBUUID(data: packet.dropFirst(2)), CBUUID(string: "180F"))
    }

    // MARK: Foundation UUID

    func testNSUUIDRoundTrips() {
        let foundation = UUID(uuidString: "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
        let uuid = CBUUID(nsuuid: foundation)
        XCTAssertEqual(uuid.uuidString, foundation.uuidString)
        XCTAssertEqual(uuid.fullUUID, foundation)
        XCTAssertEqual(uuid, CBUUID(string: foundation.uuidString))
    }

    func testNSUUIDOnTheBaseUUIDEqualsTheShortUUID() {
        let uuid = CBUUID(nsuuid: UUID(uuidString: heartRate128)!)
        XCTAssertEqual(uuid, CBUUID(string: "180D"))
        XCTAssertEqual(uuid.uuidString, "180D")
        XCTAssertEqual(CBUUID(string: "180D").fullUUID, UUID(uuidString: heartRate128))
    }

    // MARK: Equality and hashing

    func testAllFormsOfOneUUIDAreEqualAndHashAlike() {
        let forms = [
            CBUUID(string: "180D"),
            CBUUID(string: "180d"),
            CBUUID(string: "0000180D"),
            CBUUID(string: heartRate128),
            CBUUID(string: heartRate128.lowercased()),
            CBUUID(data: Data([0x18, 0x0D])),
            CBUUID(data: Data([0x00, 0x00, 0x18, 0x0D])),
            CBUUID(nsuuid: UUID(uuidString: heartRate128)!),
        ]
        for form in forms {
            XCTAssertEqual(form, forms[0])
            XCTAssertEqual(form.hashValue, forms[0].hashValue)
        }
        XCTAssertEqual(Set(forms).count, 1)
    }

    func testUUIDsWorkAsDictionaryKeysAcrossForms() {
        let serviceData: [CBUUID: Data] = [CBUUID(string: "180F"): Data([0x64])]
        XCTAssertEqual(serviceData[CBUUID(string: "0000180f-0000-1000-8000-00805f9b34fb")], Data([0x64]))
        XCTAssertNil(serviceData[CBUUID(string: "180D")])
    }

    func testDifferentUUIDsAreNotEqual() {
        XCTAssertNotEqual(CBUUID(string: "180D"), CBUUID(string: "180F"))
        XCTAssertNotEqual(CBUUID(string: "180D"), CBUUID(string: "0001180D"))
        XCTAssertEqual(Set([CBUUID(string: "180D"), CBUUID(string: "180F"), CBUUID(string: "2A37")]).count, 3)
    }

    // MARK: Invalid input

    func testValidatingAcceptsEveryValidForm() {
        XCTAssertEqual(CBUUID(validating: "180D"), CBUUID(string: "180D"))
        XCTAssertEqual(CBUUID(validating: "0000180d"), CBUUID(string: "180D"))
        XCTAssertEqual(CBUUID(validating: heartRate128), CBUUID(string: "180D"))
        XCTAssertEqual(CBUUID(validating: Data([0x18, 0x0D])), CBUUID(string: "180D"))
    }

    func testValidatingRejectsInvalidStrings() {
        let invalid = [
            "", "1", "18", "180", "180G", "180D ", " 180D", "0x180D", "180D0", "0000180D0",
            "0000180D00001000800000805F9B34FB",  // 128 bits without dashes
            "0000180D-0000-1000-8000-00805F9B34F",  // one digit short
            "0000180D-0000-1000-8000-00805F9B34FBA",  // one digit long
            "0000180D0-000-1000-8000-00805F9B34FB",  // dash misplaced
            "0000180D-0000-1000-8000+00805F9B34FB",  // not a dash
            "{0000180D-0000-1000-8000-00805F9B34FB}",
            "0000180D-0000-1000-8000-00805F9B34FG",
            "１８０D",  // full-width digits
            "180Ð",
        ]
        for string in invalid {
            XCTAssertNil(CBUUID(validating: string), "\"\(string)\" should be invalid")
        }
    }

    func testValidatingRejectsDataOfOtherLengths() {
        for count in [0, 1, 3, 5, 8, 15, 17, 32] {
            XCTAssertNil(CBUUID(validating: Data(repeating: 0xAB, count: count)), "\(count) bytes should be invalid")
        }
    }

    // MARK: Sendable

    func testUUIDCrossesIsolationDomains() async {
        let uuid = CBUUID(string: "2A37")
        let task = Task.detached { uuid.uuidString }
        let string = await task.value
        XCTAssertEqual(string, "2A37")
    }
}
