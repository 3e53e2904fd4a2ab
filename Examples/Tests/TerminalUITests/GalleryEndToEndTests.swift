import Foundation
import XCTest

/// The terminal-gallery program in a real terminal emulator (tmux): type, Tab, Enter, read the pane
/// (text and colours), press the location button with no gpsd, resize, quit with Ctrl-C, and check
/// the shell's terminal is back in cooked mode with echo.
///
/// Skipped when tmux is not installed. Uses a tmux server of its own (`-L`), so it never touches the
/// user's sessions, and kills only that server.
final class GalleryEndToEndTests: XCTestCase {
    private let server = "terminalui-test-\(getpid())"

    /// Runs a tmux command and returns what it printed. Spawned directly and waited for with
    /// `waitpid`: Foundation's `Process` did not notice tmux's client exit here (it stayed a zombie),
    /// and a pipe would be inherited and held open for ever by the server `new-session` starts.
    @discardableResult
    private func tmux(_ arguments: String...) throws -> String {
        let outputPath = NSTemporaryDirectory() + "\(server)-output"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["tmux", "-L", server] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ) == 0 else {
            throw NSError(domain: "posix_spawn", code: Int(errno))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Polls the pane until it shows `text` (a program's first frame takes a moment under load).
    private func pane(showing text: String, timeout: TimeInterval = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var pane = ""
        repeat {
            pane = try tmux("capture-pane", "-p", "-t", "gallery")
            if pane.contains(text) { return pane }
            usleep(100_000)
        } while Date() < deadline
        XCTFail("the pane never showed \(text.debugDescription):\n\(pane)")
        return pane
    }

    /// The pane's last line (tmux prints every row of the pane, blank ones too).
    private func lastLine(of pane: String) -> String {
        pane.split(separator: "\n", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
    }

    func testTypeTabEnterAndQuitWithControlC() throws {
        let gallery = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("terminal-gallery").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed")
        }
        guard FileManager.default.isExecutableFile(atPath: gallery) else {
            throw XCTSkip("terminal-gallery is not built next to the tests (swift build --build-tests builds it)")
        }
        let port = try freePort()  // closed: the location manager falls back at once
        try tmux("new-session", "-d", "-s", "gallery", "-x", "80", "-y", "18", "sh")
        defer {
            _ = try? tmux("kill-server")
            // tmux leaves its socket file behind; the directory is tmux's default for this user.
            let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
            unlink("\(directory)/tmux-\(getuid())/\(server)")
        }
        // The gallery draws in true colour whatever the environment says (`swift test` runs the tests
        // with NO_COLOR=1 here, which tmux's server and the shell would pass on); it asks the closed port
        // for gpsd and falls back to a fixed location of the test's own (Jeju).
        try tmux(
            "send-keys", "-t", "gallery",
            "NO_COLOR= COLORTERM=truecolor RX_GPSD=127.0.0.1:\(port) RX_FIXED_LOCATION=33.4996,126.5312 \(gallery);"
                + " echo EXIT=$?; echo MODE $(stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(echo|icanon)$')",
            "Enter")
        var screen = try pane(showing: "TerminalUI gallery")

        // The status line is the bottom row; the picture, a 12 × 12 pixel sun, is six rows of twelve
        // half blocks, in true colour (the sun's disc is 255,210,63).
        XCTAssertEqual(lastLine(of: screen), "Tab으로 컨트롤을 옮기세요", screen)
        XCTAssertEqual(screen.filter { $0 == "▀" }.count, 72, screen)
        let colours = try tmux("capture-pane", "-p", "-e", "-t", "gallery")
        XCTAssertTrue(colours.contains("8;2;255;210;63m▀"), colours)

        try tmux("send-keys", "-t", "gallery", "서울", "Enter")
        screen = try pane(showing: "서울의 날씨: 맑음")
        XCTAssertTrue(screen.contains("2 글자, 4 칸"))
        XCTAssertEqual(lastLine(of: screen), "검색: 서울", screen)

        try tmux("send-keys", "-t", "gallery", "BSpace", "BSpace", "부산", "Tab", "Enter")
        screen = try pane(showing: "부산의 날씨: 맑음")
        XCTAssertEqual(lastLine(of: screen), "검색: 부산", screen)

        // The slider drives the progress bar; the list selects with Enter.
        XCTAssertTrue(screen.contains(" 50%"), screen)
        try tmux("send-keys", "-t", "gallery", "Tab", "Right")
        screen = try pane(showing: " 60%")
        try tmux("send-keys", "-t", "gallery", "Tab", "Down", "Down", "Down", "Enter")
        screen = try pane(showing: "선택: 인천")
        XCTAssertTrue(screen.contains("4. 인천"), screen)
        XCTAssertFalse(screen.contains("1. 서울"), screen)  // scrolled: three rows show
        XCTAssertEqual(lastLine(of: screen), "목록에서 인천 선택", screen)

        // The map centres on the selected city; with the focus, Right pans a quarter of its 17.5°.
        _ = try pane(showing: "지도 중심 37.46, 126.71")
        try tmux("send-keys", "-t", "gallery", "Tab", "Right")
        _ = try pane(showing: "지도 중심 37.46, 131.08")

        // The location button, after the map in the focus order: nothing listens on the port, so the
        // manager reports the error (on the status line) and then the fixed location, which the label
        // shows and the map centres on.
        try tmux("send-keys", "-t", "gallery", "Tab", "Enter")
        screen = try pane(showing: "현재 위치 33.5, 126.53")
        screen = try pane(showing: "지도 중심 33.5, 126.53")
        XCTAssertTrue(
            lastLine(of: screen).hasPrefix("⚠ no gpsd at 127.0.0.1:\(port) (Connection refused)"), screen)

        // A resize lays the screen out again: the status line follows the bottom row.
        try tmux("resize-window", "-t", "gallery", "-x", "80", "-y", "20")
        let deadline = Date().addingTimeInterval(20)
        repeat {
            screen = try tmux("capture-pane", "-p", "-t", "gallery")
            if screen.split(separator: "\n", omittingEmptySubsequences: false).count == 21,
                lastLine(of: screen).hasPrefix("⚠ no gpsd")
            {
                break
            }
            usleep(100_000)
        } while Date() < deadline
        XCTAssertTrue(lastLine(of: screen).hasPrefix("⚠ no gpsd"), screen)

        try tmux("send-keys", "-t", "gallery", "C-c")
        // The shell prints the exit status, then the terminal's modes: cooked again, not -icanon -echo.
        screen = try pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=130"), screen)
        XCTAssertFalse(screen.contains("TerminalUI gallery"), screen)  // the alternate screen is gone
    }
}
