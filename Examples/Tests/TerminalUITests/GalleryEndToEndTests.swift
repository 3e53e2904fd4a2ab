import ExampleTestSupport
import Foundation
import TerminalUI
import XCTest

/// The terminal-gallery program in a real terminal emulator (tmux): type and edit, Tab, Enter, click
/// and scroll with the mouse, open the help, read the pane (text and colours), press the location
/// button with no gpsd, resize down to the minimum and below it, quit with Ctrl-C, q and Esc, and
/// check the shell's terminal is back in cooked mode with echo and mouse reporting off.
///
/// Skipped when tmux is not installed. Uses a tmux server of its own (``TmuxSession``).
final class GalleryEndToEndTests: XCTestCase {
    private func lastLine(of pane: String) -> String { TmuxSession.lastLine(of: pane) }

    /// The gallery started in a new tmux session of `width` × `height`, its first frame drawn.
    private func startGallery(
        _ name: String, width: Int = 80, height: Int = 24, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (TmuxSession, port: UInt16) {
        let gallery = try TmuxSession.program("terminal-gallery")
        let port = try freePort()  // closed: the location manager falls back at once
        let tmux = try TmuxSession(
            server: "terminalui-\(name)-\(getpid())", session: "gallery", width: width, height: height)
        // The gallery draws in true colour whatever the environment says (`swift test` runs the tests
        // with NO_COLOR=1 here, which tmux's server and the shell would pass on); it asks the closed port
        // for gpsd and falls back to a fixed location of the test's own (Jeju).
        try tmux.run(
            "NO_COLOR= COLORTERM=truecolor RX_GPSD=127.0.0.1:\(port) RX_FIXED_LOCATION=33.4996,126.5312 \(gallery)")
        _ = try tmux.pane(showing: "TerminalUI gallery", file: file, line: line)
        return (tmux, port)
    }

    /// Waits for the terminal's cursor to stand at `point` (a frame's cursor move comes last in it).
    private func assertCursor(
        _ tmux: TmuxSession, at point: Point, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let cursor = try poll("the cursor at \(point)", timeout: 20, interval: 0.1, file: file, line: line, tmux.cursor)
        {
            $0 == point
        }
        XCTAssertEqual(cursor, point, file: file, line: line)
    }

    /// The pane once the search field's width label reads `label` ("3 글자, 5 칸").
    private func pane(_ tmux: TmuxSession, field label: String) throws -> String {
        try tmux.pane(showing: label)
    }

    func testTypeTabEnterAndQuitWithControlC() throws {
        let (tmux, port) = try startGallery("keys")
        defer { tmux.kill() }
        var screen = try tmux.capture()

        // The status line is the bottom row, the hint at its right; the picture, a 12 × 12 pixel sun, is
        // six rows of twelve half blocks, in true colour (the sun's disc is 255,210,63).
        XCTAssertTrue(lastLine(of: screen).hasPrefix("Tab으로 컨트롤을 옮기세요"), screen)
        XCTAssertTrue(lastLine(of: screen).hasSuffix("F1 help · Ctrl-C quit"), screen)
        XCTAssertEqual(screen.filter { $0 == "▀" }.count, 72, screen)
        let colours = try tmux.capture(colours: true)
        XCTAssertTrue(colours.contains("8;2;255;210;63m▀"), colours)

        try tmux.send("서울", "Enter")
        screen = try tmux.pane(showing: "서울의 날씨: 맑음")
        XCTAssertTrue(screen.contains("2 글자, 4 칸"))
        XCTAssertTrue(lastLine(of: screen).hasPrefix("검색: 서울"), screen)

        try tmux.send("BSpace", "BSpace", "부산", "Tab", "Enter")
        screen = try tmux.pane(showing: "부산의 날씨: 맑음")
        XCTAssertTrue(lastLine(of: screen).hasPrefix("검색: 부산"), screen)

        // The slider drives the progress bar; the list selects with Enter.
        XCTAssertTrue(screen.contains(" 50%"), screen)
        try tmux.send("Tab", "Right")
        screen = try tmux.pane(showing: " 60%")
        try tmux.send("Tab", "Down", "Down", "Down", "Enter")
        screen = try tmux.pane(showing: "선택: 인천")
        XCTAssertTrue(lastLine(of: screen).hasPrefix("목록에서 인천 선택"), screen)

        // The map centres on the selected city; with the focus, Right pans east.
        _ = try tmux.pane(showing: "지도 중심 37.46, 126.71")
        try tmux.send("Tab", "Right")
        _ = try tmux.pane("the map panned east") { $0.contains("지도 중심 37.46, 1") && !$0.contains("126.71") }

        // The location button, after the map in the focus order: nothing listens on the port, so the
        // manager reports the error (on the status line) and then the fixed location, which the label
        // shows and the map centres on. The error stays: no key has been pressed since.
        try tmux.send("Tab", "Enter")
        screen = try tmux.pane(showing: "현재 위치 33.5, 126.53")
        screen = try tmux.pane(showing: "지도 중심 33.5, 126.53")
        XCTAssertTrue(
            lastLine(of: screen).hasPrefix("⚠ no gpsd at 127.0.0.1:\(port) (Connection refused)"), screen)

        // A resize lays the screen out again: the status line follows the bottom row.
        try tmux.resize(width: 80, height: 22)
        screen = try tmux.pane("22 rows, the status line at the bottom") { screen in
            screen.split(separator: "\n", omittingEmptySubsequences: false).count == 23
                && self.lastLine(of: screen).hasPrefix("⚠ no gpsd")
        }
        XCTAssertTrue(lastLine(of: screen).hasPrefix("⚠ no gpsd"), screen)

        try tmux.assertQuitsWithControlC(shown: "TerminalUI gallery")
        XCTAssertEqual(try tmux.display("#{mouse_sgr_flag}#{mouse_standard_flag}"), "00")
    }

    /// The field's editing keys as tmux sends them: Ctrl-W, Ctrl-A, End, Left, Home, Delete, Ctrl-E,
    /// Ctrl-U; the terminal cursor at the insertion point; a long text scrolled to keep it visible.
    func testEditingKeys() throws {
        let (tmux, _) = try startGallery("editing")
        defer { tmux.kill() }
        // The field is the first row of the left column: columns 2 to 27 of row 3.
        try tmux.send("hello world", "C-w")
        _ = try pane(tmux, field: "6 글자, 6 칸")
        try tmux.send("C-a", "X", "End", "!", "Left", "Left")
        var screen = try pane(tmux, field: "8 글자, 8 칸")
        XCTAssertTrue(screen.contains("  Xhello !"), screen)
        try assertCursor(tmux, at: Point(column: 8, row: 3))
        try tmux.send("Home", "DC")
        screen = try pane(tmux, field: "7 글자, 7 칸")
        XCTAssertTrue(screen.contains("  hello !"), screen)
        try assertCursor(tmux, at: Point(column: 2, row: 3))
        try tmux.send("C-e", "C-u")
        _ = try pane(tmux, field: "0 글자, 0 칸")

        // Forty characters in twenty-six columns: the end shows, then Ctrl-A shows the start.
        let long = "abcdefghijklmnopqrstuvwxyz0123456789ABCD"
        try tmux.send(long)
        screen = try pane(tmux, field: "40 글자, 40 칸")
        XCTAssertTrue(screen.contains("  pqrstuvwxyz0123456789ABCD "), screen)
        try assertCursor(tmux, at: Point(column: 27, row: 3))
        try tmux.send("C-a")
        screen = try tmux.pane("the start of the text") { $0.contains("  abcdefghijklmnopqrstuvwxyz ") }
        try assertCursor(tmux, at: Point(column: 2, row: 3))
        // The search result is wider than its label: it ends in an ellipsis.
        try tmux.send("Enter")
        _ = try tmux.pane(showing: "  abcdefghijklmnopqrstuvwxyz0123456789…")
        try tmux.assertQuitsWithControlC(shown: "TerminalUI gallery")
    }

    /// `?` and F1: F1 opens the help in the text field, where `?` is typed; outside it `?` opens it too;
    /// any key closes it (Esc included, which then does not quit); q on the button quits with 0.
    func testHelpWithF1AndQuestionMarkAndQuitWithQ() throws {
        let (tmux, _) = try startGallery("help")
        defer { tmux.kill() }
        try tmux.send("F1")
        var screen = try tmux.pane(showing: "┌─ Help ")
        for text in [
            "Tab/Shift-Tab", "q/Esc", "Text field", "^U ^K ^W", "Button", "Slider", "List", "Map", "This screen",
        ] {
            XCTAssertTrue(screen.contains(text), "\(text) in\n\(screen)")
        }
        try tmux.send("x")  // closes the help, and is not typed
        screen = try tmux.pane("the help closed") { !$0.contains("┌─ Help ") }
        XCTAssertTrue(screen.contains("0 글자, 0 칸"), screen)
        try tmux.send("?")
        _ = try pane(tmux, field: "1 글자, 1 칸")
        XCTAssertFalse(try tmux.capture().contains("┌─ Help "))
        try tmux.send("q")
        screen = try pane(tmux, field: "2 글자, 2 칸")  // typed too: q quits only outside a text field
        XCTAssertTrue(screen.contains("  ?q"), screen)

        try tmux.send("Tab", "?")
        _ = try tmux.pane(showing: "┌─ Help ")
        try tmux.send("Escape")
        screen = try tmux.pane("the help closed by Esc") { !$0.contains("┌─ Help ") }
        XCTAssertTrue(screen.contains("TerminalUI gallery"), screen)

        try tmux.send("q")
        screen = try tmux.pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        XCTAssertFalse(screen.contains("TerminalUI gallery"), screen)
        XCTAssertEqual(try tmux.display("#{mouse_sgr_flag}#{mouse_standard_flag}#{alternate_on}"), "000")
    }

    /// Esc on a control that is not a text field quits with 0, the terminal restored.
    func testEscQuitsOutsideTheTextField() throws {
        let (tmux, _) = try startGallery("escape")
        defer { tmux.kill() }
        try tmux.send("Escape")  // in the field: nothing
        try tmux.send("Tab", "Tab")
        _ = try tmux.pane(showing: "TerminalUI gallery")
        try tmux.send("Escape")
        let screen = try tmux.pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        XCTAssertEqual(try tmux.display("#{mouse_sgr_flag}#{mouse_standard_flag}#{alternate_on}"), "000")
    }

    /// SGR mouse reports written to the pane: the gallery switched reporting on; a click presses the
    /// button, selects a row, moves the slider and puts the insertion point in the field; the wheel
    /// scrolls the list. Ctrl-C switches reporting off again.
    func testMouseClicksAndTheWheel() throws {
        let (tmux, _) = try startGallery("mouse")
        defer { tmux.kill() }
        XCTAssertEqual(try tmux.display("#{mouse_sgr_flag}#{mouse_standard_flag}"), "11")
        try tmux.send("대구")
        var screen = try pane(tmux, field: "2 글자, 4 칸")
        let button = try XCTUnwrap(TmuxSession.cell(of: "[ 검색 ]", in: screen))
        try tmux.click(column: button.column + 2, row: button.row)
        screen = try tmux.pane(showing: "대구의 날씨: 맑음")
        XCTAssertTrue(lastLine(of: screen).hasPrefix("검색: 대구"), screen)

        let row = try XCTUnwrap(TmuxSession.cell(of: "3. 대구", in: screen))
        try tmux.click(column: row.column + 1, row: row.row)
        screen = try tmux.pane(showing: "선택: 대구")
        XCTAssertTrue(lastLine(of: screen).hasPrefix("목록에서 대구 선택"), screen)

        // The slider's track spans the left column (columns 2 to 38): its right end is the maximum.
        let track = try XCTUnwrap(TmuxSession.cell(of: "───", in: screen))
        try tmux.click(column: 38, row: track.row)
        _ = try tmux.pane(showing: "100%")

        // Eleven of fourteen rows show: three notches down and the first three have scrolled away.
        let list = try XCTUnwrap(TmuxSession.cell(of: "1. 서울", in: screen))
        for _ in 0..<3 { try tmux.mouse(button: 65, column: list.column, row: list.row) }
        screen = try tmux.pane("the list scrolled by three rows") {
            TmuxSession.cell(of: "4. 인천", in: $0)?.row == list.row
        }
        XCTAssertFalse(screen.contains("1. 서울"), screen)
        // The last row, too long for the column, ends in an ellipsis at the column's edge.
        let last = try XCTUnwrap(screen.split(separator: "\n").first { $0.contains("14. 제주") })
        XCTAssertTrue(last.hasPrefix("  14. 제주특별자치도 서귀포시 (a row t…   "), screen)

        // Back to the field: the click on the right half of 대 puts the insertion point before it.
        try tmux.click(column: 3, row: button.row)
        try assertCursor(tmux, at: Point(column: 2, row: button.row))
        try tmux.send("x")
        screen = try pane(tmux, field: "3 글자, 5 칸")
        XCTAssertTrue(screen.contains("  x대구"), screen)

        try tmux.assertQuitsWithControlC(shown: "TerminalUI gallery")
        XCTAssertEqual(try tmux.display("#{mouse_sgr_flag}#{mouse_standard_flag}"), "00")
    }

    /// The layout follows the width: at the minimum, 60×20, everything is there; at 200×60 the columns
    /// share the width; under the minimum only the message shows, and the screen comes back after.
    func testResizingToTheMinimumToALargeTerminalAndBelowTheMinimum() throws {
        let (tmux, _) = try startGallery("resize")
        defer { tmux.kill() }
        func rows(_ screen: String) -> [Substring] {
            screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        }

        try tmux.resize(width: 60, height: 20)
        var screen = try tmux.pane("the layout at 60×20") { screen in
            rows(screen).count == 20 && self.lastLine(of: screen).hasPrefix("Tab으로 컨트롤을 옮기세요")
        }
        for text in [
            "TerminalUI gallery", "도시 이름", "[ 검색 ]", "0 글자, 0 칸", " 50%", "1. 서울", "지도 중심 36.0, 127.8", "[ 현재 위치 ]",
        ] {
            XCTAssertTrue(screen.contains(text), "\(text) at 60×20:\n\(screen)")
        }
        XCTAssertTrue(lastLine(of: screen).hasSuffix("F1 help · Ctrl-C quit"), screen)
        XCTAssertEqual(screen.filter { $0 == "▀" }.count, 72, screen)

        try tmux.resize(width: 200, height: 60)
        screen = try tmux.pane("the layout at 200×60") { screen in
            rows(screen).count == 60 && self.lastLine(of: screen).hasSuffix("F1 help · Ctrl-C quit")
        }
        // The two columns share the width: the map's centre label starts in the middle.
        let centre = try XCTUnwrap(TmuxSession.cell(of: "지도 중심", in: screen))
        XCTAssertEqual(centre.column, 101, screen)
        let slider = try XCTUnwrap(TmuxSession.cell(of: "●", in: screen))
        XCTAssertEqual(slider.column, 2 + 96 / 2, screen)  // the thumb in the middle of a 97-column track
        XCTAssertTrue(screen.contains("14. 제주특별자치도 서귀포시 (a row too long for the list)"), screen)

        try tmux.resize(width: 59, height: 20)
        screen = try tmux.pane(showing: "terminal too small (needs 60×20)")
        XCTAssertFalse(screen.contains("TerminalUI gallery"), screen)
        try tmux.resize(width: 80, height: 19)
        screen = try tmux.pane(showing: "now 80×19")
        try tmux.send("abc")  // ignored while too small
        try tmux.resize(width: 60, height: 20)
        screen = try tmux.pane(showing: "TerminalUI gallery")
        XCTAssertTrue(screen.contains("0 글자, 0 칸"), screen)
        XCTAssertFalse(screen.contains("too small"), screen)

        try tmux.assertQuitsWithControlC(shown: "TerminalUI gallery")
    }
}
