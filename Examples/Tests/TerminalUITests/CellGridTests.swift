import TerminalUI
import XCTest

final class CellGridTests: XCTestCase {
    func testWidthOfKoreanAsciiEmojiAndMarks() {
        XCTAssertEqual(terminalWidth(of: "a"), 1)
        XCTAssertEqual(terminalWidth(of: "한"), 2)
        XCTAssertEqual(terminalWidth(of: "검색 버튼"), 9)
        XCTAssertEqual(terminalWidth(of: "날씨 API"), 8)
        XCTAssertEqual(terminalWidth(of: "漢字"), 4)
        XCTAssertEqual(terminalWidth(of: "ＡＢ"), 4)
        XCTAssertEqual(terminalWidth(of: "😀"), 2)
        XCTAssertEqual(terminalWidth(of: "🇰🇷"), 2)
        XCTAssertEqual(terminalWidth(of: "☀️"), 2)  // U+2600 + emoji presentation selector
        XCTAssertEqual(terminalWidth(of: "☀"), 1)
        XCTAssertEqual(terminalWidth(of: "e\u{301}"), 1)  // e + combining acute is one grapheme
        XCTAssertEqual(terminalWidth(of: "\u{1100}\u{1161}"), 2)  // decomposed 가: one grapheme
        XCTAssertEqual(terminalWidth(of: "\u{7}"), 0)
        XCTAssertEqual(terminalWidth(of: "é"), 1)
    }

    func testDrawsKoreanTwoColumnsPerSyllable() {
        var grid = CellGrid(size: Size(columns: 10, rows: 2))
        let advanced = grid.draw("검색: ok", at: Point(column: 0, row: 0))
        XCTAssertEqual(advanced, 8)
        XCTAssertEqual(grid[0, 0].character, "검")
        XCTAssertTrue(grid[1, 0].isContinuation)
        XCTAssertEqual(grid[2, 0].character, "색")
        XCTAssertEqual(grid[4, 0].character, ":")
        XCTAssertEqual(grid[6, 0].character, "o")
        XCTAssertEqual(grid.text, "검색: ok\n")
    }

    func testClipsAtTheRectangleAndTheGridEdge() {
        var grid = CellGrid(size: Size(columns: 8, rows: 3))
        grid.draw("abcdefghij", at: Point(column: 3, row: 0))
        grid.draw("hello", at: Point(column: -2, row: 1))
        grid.draw("xxxxxxx", at: Point(column: 0, row: 2), clip: Rect(column: 2, row: 2, columns: 3, rows: 1))
        grid.draw("nothing", at: Point(column: 0, row: 5))
        XCTAssertEqual(grid.text, "   abcde\nllo\n  xxx")
    }

    func testAWideCharacterThatDoesNotFitBecomesASpace() {
        var grid = CellGrid(size: Size(columns: 5, rows: 2))
        grid.draw("가나다", at: Point(column: 0, row: 0))
        XCTAssertEqual(grid.text, "가나\n")
        XCTAssertEqual(grid[4, 0], Cell(" "))
        grid.draw("가나", at: Point(column: 0, row: 1), clip: Rect(column: 0, row: 1, columns: 3, rows: 1))
        XCTAssertEqual(grid.line(1), "가")
        XCTAssertEqual(grid[2, 1], Cell(" "))
    }

    func testOverwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var grid = CellGrid(size: Size(columns: 6, rows: 1))
        grid.draw("한국어", at: Point(column: 0, row: 0))
        grid.draw("x", at: Point(column: 1, row: 0))  // right half of 한
        XCTAssertEqual(grid.text, " x국어")
        grid.draw("y", at: Point(column: 2, row: 0))  // left half of 국
        XCTAssertEqual(grid.text, " xy 어")
        grid.draw("말", at: Point(column: 3, row: 0))  // straddles the blank and the left half of 어
        XCTAssertEqual(grid.text, " xy말")
        XCTAssertEqual(grid[5, 0], Cell(" "))
    }

    func testFillResizeAndStyles() {
        let red = CellStyle(foreground: RGB(hex: 0xFF0000), attributes: [.bold])
        var grid = CellGrid(size: Size(columns: 4, rows: 2))
        grid.draw("날씨", at: Point(column: 0, row: 0), style: red)
        XCTAssertEqual(grid[0, 0].style, red)
        XCTAssertEqual(grid[1, 0].style, red)
        grid.fill(Rect(column: 0, row: 1, columns: 10, rows: 5), with: Cell("."))
        XCTAssertEqual(grid.text, "날씨\n....")
        XCTAssertEqual(grid.resized(to: Size(columns: 3, rows: 1)).text, "날")
        XCTAssertEqual(grid.resized(to: Size(columns: 6, rows: 3)).text, "날씨\n....\n")
    }
}
