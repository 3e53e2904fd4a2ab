import TerminalUI
import XCTest

final class KeyDecoderTests: XCTestCase {
    private func keys(_ bytes: [UInt8], flush: Bool = true) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(bytes) + (flush ? decoder.flush() : [])
    }

    private func keys(_ text: String) -> [Key] {
        keys(Array(text.utf8))
    }

    func testPrintableTextIncludingKorean() {
        XCTAssertEqual(keys("aZ 1~"), "aZ 1~".map(Key.character))
        XCTAssertEqual(keys("서울"), [.character("서"), .character("울")])
        XCTAssertEqual(keys("é😀🇰🇷"), [.character("é"), .character("😀"), .character("🇰🇷")])
        // Decomposed Hangul (what some input methods send) is one grapheme, one key.
        XCTAssertEqual(keys("\u{1112}\u{1161}\u{11AB}"), [.character("\u{1112}\u{1161}\u{11AB}")])
    }

    func testEditingKeys() {
        XCTAssertEqual(keys([0x0D]), [.enter])
        XCTAssertEqual(keys([0x0A]), [.enter])
        XCTAssertEqual(keys([0x7F]), [.backspace])
        XCTAssertEqual(keys([0x08]), [.backspace])
        XCTAssertEqual(keys([0x09]), [.tab])
        XCTAssertEqual(keys("\u{1B}[Z"), [.backTab])
    }

    func testControlLetters() {
        XCTAssertEqual(keys([0x01]), [.control("a")])
        XCTAssertEqual(keys([0x03]), [.control("c")])
        XCTAssertEqual(keys([0x1A]), [.control("z")])
        XCTAssertEqual(keys([0x00]), [.control(" ")])
        XCTAssertEqual(keys([0x1C, 0x1D, 0x1E, 0x1F]), [.control("\\"), .control("]"), .control("^"), .control("_")])
    }

    func testCursorAndPageKeysInEveryCommonForm() {
        let table: [(String, Key)] = [
            ("[A", .up), ("[B", .down), ("[C", .right), ("[D", .left),
            ("OA", .up), ("OB", .down), ("OC", .right), ("OD", .left),
            ("[H", .home), ("[F", .end), ("OH", .home), ("OF", .end),
            ("[1~", .home), ("[7~", .home), ("[4~", .end), ("[8~", .end),
            ("[5~", .pageUp), ("[6~", .pageDown), ("[2~", .insert), ("[3~", .delete),
            ("[1;5A", .up), ("[1;2D", .left), ("[5;5~", .pageUp),
            ("OP", .function(1)), ("OS", .function(4)), ("[15~", .function(5)), ("[17~", .function(6)),
            ("[21~", .function(10)), ("[24~", .function(12)),
        ]
        for (sequence, key) in table {
            XCTAssertEqual(keys("\u{1B}" + sequence), [key], sequence)
        }
    }

    /// SGR mouse reports (`ESC [ < b ; x ; y M` press, `m` release), 1-based on the wire, 0-based here;
    /// the wheel is buttons 64 and 65; motion and malformed reports are unknown, not swallowed.
    func testSGRMouseReports() {
        XCTAssertEqual(keys("\u{1B}[<0;6;13M"), [.mouse(.click(column: 5, row: 12))])
        XCTAssertEqual(
            keys("\u{1B}[<0;6;13m"), [.mouse(MouseEvent(action: .release, location: Point(column: 5, row: 12)))])
        XCTAssertEqual(
            keys("\u{1B}[<2;200;60M"),
            [.mouse(MouseEvent(button: 2, action: .press, location: Point(column: 199, row: 59)))])
        XCTAssertEqual(
            keys("\u{1B}[<64;1;1M\u{1B}[<65;3;4M"),
            [
                .mouse(MouseEvent(action: .scrollUp, location: .zero)),
                .mouse(MouseEvent(action: .scrollDown, location: Point(column: 2, row: 3))),
            ])
        XCTAssertEqual(keys("\u{1B}[<32;1;1M"), [.unknown(Array("\u{1B}[<32;1;1M".utf8))])
        XCTAssertEqual(keys("\u{1B}[<0;0;1M"), [.unknown(Array("\u{1B}[<0;0;1M".utf8))])
        // Cut in the middle by a read, finished by the next.
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.decode(Array("\u{1B}[<0;1".utf8)), [])
        XCTAssertEqual(decoder.decode(Array("0;2Ma".utf8)), [.mouse(.click(column: 9, row: 1)), .character("a")])
    }

    func testEscapeAloneAltAndUnknownSequences() {
        XCTAssertEqual(keys([0x1B]), [.escape])
        XCTAssertEqual(keys([0x1B, 0x1B]), [.escape, .escape])
        XCTAssertEqual(keys("\u{1B}x"), [.alt("x")])
        XCTAssertEqual(keys([0x1B, 0x0D]), [.escape, .enter])
        XCTAssertEqual(keys("\u{1B}한"), [.escape, .character("한")])
        XCTAssertEqual(keys("\u{1B}[99~a"), [.unknown(Array("\u{1B}[99~".utf8)), .character("a")])
        XCTAssertEqual(keys("\u{1B}[?1;2c"), [.unknown(Array("\u{1B}[?1;2c".utf8))])
        XCTAssertEqual(keys("\u{1B}OX"), [.unknown(Array("\u{1B}OX".utf8))])
    }

    func testInvalidUTF8IsReportedNotSwallowed() {
        XCTAssertEqual(keys([0x80, 0x61]), [.unknown([0x80]), .character("a")])
        XCTAssertEqual(keys([0xED, 0x95, 0x61]), [.unknown([0xED, 0x95]), .character("a")])
        XCTAssertEqual(keys([0xE0, 0x80, 0x80]), [.unknown([0xE0, 0x80, 0x80])])  // overlong
        XCTAssertEqual(keys([0xFF]), [.unknown([0xFF])])
        XCTAssertEqual(keys([0xEC, 0x84]), [.unknown([0xEC, 0x84])])  // cut, then flushed
    }

    func testAMixedStream() {
        let stream = "서울\u{7F}\u{7F}부산\r\t\u{1B}[Z\u{1B}[B\u{3}"
        XCTAssertEqual(
            keys(stream),
            [
                .character("서"), .character("울"), .backspace, .backspace, .character("부"), .character("산"), .enter,
                .tab, .backTab, .down, .control("c"),
            ])
    }

    /// Every split of a stream into two chunks decodes to the same keys as the whole: partial escape
    /// sequences and UTF-8 characters wait for the rest.
    func testEverySplitIntoChunksDecodesTheSame() {
        let bytes = Array("a한\u{1B}[A\u{1B}[5~😀\u{1B}OP\r\u{1B}[1;5C글".utf8)
        let whole = keys(bytes)
        XCTAssertEqual(whole.count, 9)
        for split in 0...bytes.count {
            var decoder = KeyDecoder()
            let decoded = decoder.decode(bytes[..<split]) + decoder.decode(bytes[split...])
            XCTAssertFalse(decoder.hasPendingBytes)
            XCTAssertEqual(decoded, whole, "split at \(split)")
        }
        // And byte by byte.
        var decoder = KeyDecoder()
        XCTAssertEqual(bytes.flatMap { decoder.decode([$0]) }, whole)
    }

    func testPendingBytesWaitUntilFlushed() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.decode([0x61, 0x1B]), [.character("a")])
        XCTAssertTrue(decoder.hasPendingBytes)
        XCTAssertEqual(decoder.flush(), [.escape])
        XCTAssertFalse(decoder.hasPendingBytes)
        XCTAssertEqual(decoder.decode(Array("\u{1B}[".utf8)), [])
        XCTAssertEqual(decoder.flush(), [.alt("[")])
        XCTAssertEqual(decoder.decode([0xED, 0x95]), [])
        XCTAssertEqual(decoder.decode([0x9C]), [.character("한")])
    }

    func testAnOverlongSequenceIsCutOff() {
        var decoder = KeyDecoder()
        let garbage = [0x1B, UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: "1"), count: 40)
        let decoded = decoder.decode(garbage)
        XCTAssertEqual(decoded.count, 1)
        guard case .unknown(let bytes) = decoded.first else { return XCTFail("\(decoded)") }
        XCTAssertEqual(bytes.count, 42)
    }
}
