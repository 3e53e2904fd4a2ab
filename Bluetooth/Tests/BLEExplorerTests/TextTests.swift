import CoreBluetooth
import Foundation
import RxDBus
import XCTest

@testable import BLEExplorer

/// What the explorer reads and writes as text: typed values, shown values, heart-rate measurements,
/// RSSI bars and the sentences failures become.
final class TextTests: XCTestCase {
    func testWriteInputTakesHexBytesOrQuotedText() throws {
        XCTAssertEqual(try WriteInput.parse("01 ff"), Data([0x01, 0xFF]))
        XCTAssertEqual(try WriteInput.parse("01FF7a"), Data([0x01, 0xFF, 0x7A]))
        XCTAssertEqual(try WriteInput.parse("0x1, 0xFF"), Data([0x01, 0xFF]))
        XCTAssertEqual(try WriteInput.parse(" \"hi there\" "), Data("hi there".utf8))
        XCTAssertEqual(try WriteInput.parse("\"\""), Data())
        XCTAssertThrowsError(try WriteInput.parse("")) { XCTAssertEqual($0 as? WriteInput.Failure, .empty) }
        XCTAssertThrowsError(try WriteInput.parse("1 2")) { XCTAssertEqual($0 as? WriteInput.Failure, .oddDigits) }
        XCTAssertThrowsError(try WriteInput.parse("\"open")) {
            XCTAssertEqual($0 as? WriteInput.Failure, .unterminatedText)
        }
        XCTAssertThrowsError(try WriteInput.parse("01 zz")) {
            XCTAssertEqual(
                ($0 as? WriteInput.Failure)?.description,
                "zz is not hex: write bytes like 01 ff, or text in quotes like \"hello\".")
        }
    }

    func testValuesShowAsHexAndText() {
        XCTAssertEqual(ValueText.describe(Data([0x06, 0x48])), "06 48  \"·H\"")
        XCTAssertEqual(ValueText.describe(Data()), "(empty)")
        XCTAssertEqual(ValueText.hex(Data(repeating: 0xAB, count: 3), limit: 2), "AB AB …")
        XCTAssertEqual(ValueText.text(Data("Lamp".utf8)), "\"Lamp\"")
    }

    func testHeartRateMeasurementFollowsItsFlags() {
        XCTAssertEqual(HeartRateMeasurement(Data([0x06, 72]))?.beatsPerMinute, 72)
        XCTAssertEqual(HeartRateMeasurement(Data([0x06, 72]))?.sensorContact, 3)
        // Bit 0: a little-endian uint16.
        XCTAssertEqual(HeartRateMeasurement(Data([0x01, 0x2C, 0x01]))?.beatsPerMinute, 300)
        XCTAssertNil(HeartRateMeasurement(Data([0x01, 0x2C])))
        XCTAssertNil(HeartRateMeasurement(Data()))
    }

    func testSignalBars() {
        XCTAssertEqual(SignalBars.text(-40), "▂▄▆█")
        XCTAssertEqual(SignalBars.text(-70), "▂▄··")
        XCTAssertEqual(SignalBars.text(-100), "····")
    }

    func testErrorsAreSentences() {
        XCTAssertEqual(ErrorSentence.describe(DBusError(name: DBusError.noReply)), "BlueZ did not answer in time.")
        XCTAssertEqual(
            ErrorSentence.describe(DBusError(name: "org.bluez.Error.NotPermitted", message: "Read not permitted")),
            "BlueZ refused: read not permitted.")
        XCTAssertEqual(ErrorSentence.describe(CBError(.connectionTimeout)), "The connection timed out.")
        XCTAssertEqual(ErrorSentence.reason(CBATTError(.readNotPermitted)).first?.isLowercase, true)
    }
}
