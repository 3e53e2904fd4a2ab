import CoreBluetooth
import Foundation
import XCTest

final class CBUUIDStandardNamesTests: XCTestCase {
    func testDescriptionIsTheStandardName() {
        let expected: [String: String] = [
            "1800": "Generic Access",
            "1801": "Generic Attribute",
            "180A": "Device Information",
            "180D": "Heart Rate",
            "180F": "Battery",
            "181A": "Environmental Sensing",
            "1826": "Fitness Machine",
            "2A00": "Device Name",
            "2A01": "Appearance",
            "2A19": "Battery Level",
            "2A1C": "Temperature Measurement",
            "2A29": "Manufacturer Name String",
            "2A37": "Heart Rate Measurement",
            "2A38": "Body Sensor Location",
            "2A39": "Heart Rate Control Point",
            "2A6E": "Temperature",
            "2A6F": "Humidity",
            "2902": "Client Characteristic Configuration",
            "2904": "Characteristic Presentation Format",
        ]
        for (string, name) in expected {
            XCTAssertEqual(CBUUID(string: string).description, name, string)
            XCTAssertEqual(CBUUID(string: string).standardName, name, string)
            XCTAssertEqual("\(CBUUID(string: string))", name, string)
        }
    }

    func testThe128BitFormOfAStandardUUIDHasItsName() {
        XCTAssertEqual(CBUUID(string: "00002a37-0000-1000-8000-00805f9b34fb").description, "Heart Rate Measurement")
    }

    func testDescriptionOfAnUnknownUUIDIsItsString() {
        let vendor = CBUUID(string: "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        XCTAssertNil(vendor.standardName)
        XCTAssertEqual(vendor.description, "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")

        let unassigned16 = CBUUID(string: "FFF0")
        XCTAssertNil(unassigned16.standardName)
        XCTAssertEqual(unassigned16.description, "FFF0")

        let unassigned32 = CBUUID(string: "12345678")
        XCTAssertNil(unassigned32.standardName)
        XCTAssertEqual(unassigned32.description, "12345678")
    }

    func testA32BitUUIDBeyond16BitsHasNoName() {
        // 0x0001180D is not 0x180D.
        XCTAssertNil(CBUUID(string: "0001180D").standardName)
    }

    func testStaticLookup() {
        XCTAssertEqual(CBUUID.standardName(forAssignedNumber: 0x180D), "Heart Rate")
        XCTAssertEqual(CBUUID.standardName(forAssignedNumber: 0x2A19), "Battery Level")
        XCTAssertEqual(CBUUID.standardName(forAssignedNumber: 0x2800), "Primary Service")
        XCTAssertNil(CBUUID.standardName(forAssignedNumber: 0xFEAA))
        XCTAssertNil(CBUUID.standardName(forAssignedNumber: 0x0000))
    }

    func testServiceNames() {
        let services: [UInt16: String] = [
            0x1802: "Immediate Alert", 0x1803: "Link Loss", 0x1804: "Tx Power", 0x1805: "Current Time",
            0x1809: "Health Thermometer", 0x1810: "Blood Pressure", 0x1815: "Automation IO",
            0x1816: "Cycling Speed and Cadence", 0x181C: "User Data", 0x181D: "Weight Scale",
            0x183A: "Insulin Delivery", 0x183B: "Binary Sensor",
        ]
        for (number, name) in services {
            XCTAssertEqual(CBUUID.standardName(forAssignedNumber: number), name)
        }
    }

    func testCharacteristicNames() {
        let characteristics: [UInt16: String] = [
            0x2A1D: "Temperature Type", 0x2A1E: "Intermediate Temperature", 0x2A21: "Measurement Interval",
            0x2A23: "System ID", 0x2A24: "Model Number String", 0x2A25: "Serial Number String",
            0x2A26: "Firmware Revision String", 0x2A27: "Hardware Revision String",
            0x2A28: "Software Revision String", 0x2A05: "Service Changed",
        ]
        for (number, name) in characteristics {
            XCTAssertEqual(CBUUID.standardName(forAssignedNumber: number), name)
        }
    }

    func testDescriptorNamesFromAppleConstants() {
        XCTAssertEqual(
            CBUUID(string: CBUUIDCharacteristicExtendedPropertiesString).description,
            "Characteristic Extended Properties")
        XCTAssertEqual(
            CBUUID(string: CBUUIDCharacteristicUserDescriptionString).description, "Characteristic User Description")
        XCTAssertEqual(
            CBUUID(string: CBUUIDClientCharacteristicConfigurationString).description,
            "Client Characteristic Configuration")
        XCTAssertEqual(
            CBUUID(string: CBUUIDServerCharacteristicConfigurationString).description,
            "Server Characteristic Configuration")
        XCTAssertEqual(
            CBUUID(string: CBUUIDCharacteristicFormatString).description, "Characteristic Presentation Format")
        XCTAssertEqual(
            CBUUID(string: CBUUIDCharacteristicAggregateFormatString).description, "Characteristic Aggregate Format")
        XCTAssertEqual(CBUUID(string: CBUUIDCharacteristicValidRangeString).description, "Valid Range")
        XCTAssertEqual(
            CBUUID(string: CBUUIDCharacteristicObservationScheduleString).description, "Observation Schedule")
        XCTAssertEqual(CBUUID.standardName(forAssignedNumber: 0x2907), "External Report Reference")
        XCTAssertEqual(CBUUID.standardName(forAssignedNumber: 0x2908), "Report Reference")
    }

    func testAppleDescriptorConstantValues() {
        XCTAssertEqual(CBUUIDCharacteristicExtendedPropertiesString, "2900")
        XCTAssertEqual(CBUUIDCharacteristicUserDescriptionString, "2901")
        XCTAssertEqual(CBUUIDClientCharacteristicConfigurationString, "2902")
        XCTAssertEqual(CBUUIDServerCharacteristicConfigurationString, "2903")
        XCTAssertEqual(CBUUIDCharacteristicFormatString, "2904")
        XCTAssertEqual(CBUUIDCharacteristicAggregateFormatString, "2905")
        XCTAssertEqual(CBUUIDCharacteristicValidRangeString, "2906")
        XCTAssertEqual(CBUUIDL2CAPPSMCharacteristicString, "ABDD3056-28FA-441D-A470-55A75A52553A")
        let psm = CBUUID(string: CBUUIDL2CAPPSMCharacteristicString)
        XCTAssertNil(psm.standardName)
        XCTAssertEqual(psm.uuidString, CBUUIDL2CAPPSMCharacteristicString)
    }

    func testNamesLieInTheirAssignedRanges() {
        // Every known number is a service (0x18xx), a declaration (0x280x), a descriptor (0x29xx) or a
        // characteristic (0x2Axx, 0x2Bxx), and has a non-empty name without stray spaces.
        for number in UInt16(0x0000)...UInt16(0xFFFF) {
            guard let name = CBUUID.standardName(forAssignedNumber: number) else { continue }
            XCTAssertTrue(
                (0x1800...0x18FF).contains(number) || (0x2800...0x2803).contains(number)
                    || (0x2900...0x29FF).contains(number) || (0x2A00...0x2BFF).contains(number),
                String(number, radix: 16))
            XCTAssertFalse(name.isEmpty)
            XCTAssertEqual(name, name.trimmingCharacters(in: .whitespaces))
        }
    }
}
