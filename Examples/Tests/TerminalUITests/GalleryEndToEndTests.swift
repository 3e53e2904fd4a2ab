import Foundation
import XCTest

/// The terminal-gallery program in a real terminal emulator (tmux): type, Tab, Enter, read the pane
/// (text and colours), press the location button with no gpsd, resize, quit with Ctrl-C, and check
/// the shell's terminal is back in cooked mode with echo.
///
/// Skipped when tmux is not installed. Uses a tmux server of its own (``TmuxSession``).
final class GalleryEndToEndTests: XCTestCase {
    private func lastLine(of pane: String) -> String { TmuxSession.lastLine(of: pane) }

    func testTypeTabEnterAndQuitWithControlC() throws {
        let gallery = try TmuxSession.program("terminal-gallery")
        let port = try freePort()  // closed: the location manager falls back at once
        let tmux = try TmuxSession(server: "terminalui-test-\(getpid())", session: "gallery", width: 80, height: 18)
        defer { tmux.kill() }
        // The gallery draws in true colour whatever the environment says (`swift test` runs the tests
        // with NO_COLOR=1 here, which tmux's server and the shell would pass on); it asks the closed port
        // for gpsd and falls back to a fixed location of the test's own (Jeju).
        try tmux.run(
            "NO_COLOR= COLORTERM=truecolor RX_GPSD=127.0.0.1:\(port) RX_FIXED_LOCATION=33.4996,126.5312 \(gallery)")
        var screen = try tmux.pane(showing: "TerminalUI gallery")

        // The status line is the bottom row; the picture, a 12 × 12 pixel sun, is six rows of twelve
        // half blocks, in true colour (the sun's disc is 255,210,63).
        XCTAssertEqual(lastLine(of: screen), "Tab으로 컨트롤을 옮기세요", screen)
        XCTAssertEqual(screen.filter { $0 == "▀" }.count, 72, screen)
        let colours = try tmux.capture(colours: true)
        XCTAssertTrue(colours.contains("8;2;255;210;63m▀"), colours)

        try tmux.send("서울", "Enter")
        screen = try tmux.pane(showing: "서울의 날씨: 맑음")
        XCTAssertTrue(screen.contains("2 글자, 4 칸"))
        XCTAssertEqual(lastLine(of: screen), "검색: 서울", screen)

        try tmux.send("BSpace", "BSpace", "부산", "Tab", "Enter")
        screen = try tmux.pane(showing: "부산의 날씨: 맑음")
        XCTAssertEqual(lastLine(of: screen), "검색: 부산", screen)

        // The slider drives the progress bar; the list selects with Enter.
        XCTAssertTrue(screen.contains(" 50%"), screen)
        try tmux.send("Tab", "Right")
        screen = try tmux.pane(showing: " 60%")
        try tmux.send("Tab", "Down", "Down", "Down", "Enter")
        screen = try tmux.pane(showing: "선택: 인천")
        XCTAssertTrue(screen.contains("4. 인천"), screen)
        XCTAssertFalse(screen.contains("1. 서울"), screen)  // scrolled: three rows show
        XCTAssertEqual(lastLine(of: screen), "목록에서 인천 선택", screen)

        // The map centres on the selected city; with the focus, Right pans a quarter of its 17.5°.
        _ = try tmux.pane(showing: "지도 중심 37.46, 126.71")
        try tmux.send("Tab", "Right")
        _ = try tmux.pane(showing: "지도 중심 37.46, 131.08")

        // The location button, after the map in the focus order: nothing listens on the port, so the
        // manager reports the error (on the status line) and then the fixed location, which the label
        // shows and the map centres on.
        try tmux.send("Tab", "Enter")
        screen = try tmux.pane(showing: "현재 위치 33.5, 126.53")
        screen = try tmux.pane(showing: "지도 중심 33.5, 126.53")
        XCTAssertTrue(
            lastLine(of: screen).hasPrefix("⚠ no gpsd at 127.0.0.1:\(port) (Connection refused)"), screen)

        // A resize lays the screen out again: the status line follows the bottom row.
        try tmux.resize(width: 80, height: 20)
        screen = try tmux.pane("20 rows, the status line at the bottom") { screen in
            screen.split(separator: "\n", omittingEmptySubsequences: false).count == 21
                && self.lastLine(of: screen).hasPrefix("⚠ no gpsd")
        }
        XCTAssertTrue(lastLine(of: screen).hasPrefix("⚠ no gpsd"), screen)

        try tmux.assertQuitsWithControlC(shown: "TerminalUI gallery")
    }
}
