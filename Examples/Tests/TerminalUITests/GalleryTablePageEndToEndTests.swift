import ExampleTestSupport
import Foundation
import TerminalUI
import XCTest

/// The gallery's table page in tmux: F3 shows the sectioned table and the grid beside it; an inserted
/// row appears on green, its slot in the grid framed the same, and then settles, a deleted one stays
/// marked dim red before it goes; F3 goes back; Ctrl-C quits and restores the terminal.
///
/// Skipped when tmux is not installed. Uses a tmux server of its own (``TmuxSession``).
final class GalleryTablePageEndToEndTests: XCTestCase {
    func testRowsInsertedAndDeletedAreMarkedThenSettle() throws {
        let gallery = try TmuxSession.program("terminal-gallery")
        let port = try freePort()
        let tmux = try TmuxSession(server: "terminalui-table-\(getpid())", session: "gallery", width: 80, height: 24)
        defer { tmux.kill() }
        try tmux.run("NO_COLOR= COLORTERM=truecolor RX_GPSD=127.0.0.1:\(port) \(gallery)")
        _ = try tmux.pane(showing: "TerminalUI gallery")

        try tmux.send("F3")
        var screen = try tmux.pane(showing: "▾ 경기도")
        XCTAssertTrue(screen.contains("▾ 경상도") && screen.contains("3개 도시"), screen)
        XCTAssertFalse(screen.contains("TerminalUI gallery"), screen)

        try tmux.send("i")
        screen = try tmux.pane(showing: "1. 전주")
        // The same frame shows the grid's slot for 전주 framed, doubled, while the row is marked.
        XCTAssertTrue(screen.contains("║전주"), screen)
        // On green (30,107,53) while the mark lasts, then plain.
        XCTAssertTrue(try tmux.capture(colours: true).contains("48;2;30;107;53m"), screen)
        _ = try tmux.pane("the insertion settled") { _ in
            (try? tmux.capture(colours: true).contains("48;2;30;107;53m")) == false
        }
        // The highlight stayed on 수원, which moved down a row: Home goes to 전주, d deletes it.
        try tmux.send("Home", "d")
        _ = try tmux.pane("the deleted row marked dim red") { _ in
            (try? tmux.capture(colours: true).contains("38;2;224;108;108m")) == true
        }
        _ = try tmux.pane("the deletion settled") { !$0.contains("전주") }
        screen = try tmux.capture()
        XCTAssertTrue(screen.contains("1. 수원") && screen.contains("3개 도시"), screen)

        try tmux.send("F3")
        _ = try tmux.pane(showing: "TerminalUI gallery")
        try tmux.assertQuitsWithControlC(shown: "TerminalUI gallery")
    }
}
