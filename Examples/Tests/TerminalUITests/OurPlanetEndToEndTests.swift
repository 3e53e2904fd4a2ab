import Foundation
import XCTest

/// ourplanet offline in a real terminal emulator (tmux), as a person uses it: the categories arrive
/// and fill in with counts while the progress bar runs to 100 %, one category failing (the fixture's
/// `OURPLANET_FIXTURE_FAIL`) without stopping the others; End and Enter show the wildfires; Shift-Tab to
/// the slider and Left twice filters them to 340 days; Ctrl-C, and the shell's terminal back in cooked
/// mode with echo.
///
/// Skipped when tmux is not installed. Uses a tmux server of its own (`-L`) and kills only that server.
final class OurPlanetEndToEndTests: XCTestCase {
    private let server = "ourplanet-test-\(getpid())"

    /// Runs a tmux command and returns what it printed (spawned and waited for directly, as in
    /// GalleryEndToEndTests, where `Process` did not notice tmux's client exit).
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

    /// Polls the pane until `condition` holds for it (the downloads take a few seconds). The limit only
    /// keeps a broken program from hanging the test.
    private func pane(_ what: String, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(20)
        var pane = ""
        repeat {
            pane = try tmux("capture-pane", "-p", "-t", "ourplanet")
            if condition(pane) { return pane }
            usleep(100_000)
        } while Date() < deadline
        XCTFail("the pane never showed \(what):\n\(pane)")
        return pane
    }

    private func pane(showing text: String) throws -> String {
        try pane(text.debugDescription) { $0.contains(text) }
    }

    /// The rows of the events list that show a wildfire (state, date, then the title).
    private func fires(_ pane: String) -> [String] {
        pane.split(separator: "\n").filter { $0.contains(" 20") && $0.contains("  Wildfire ") }.map(String.init)
    }

    func testCategoriesProgressEventsDaysAndQuit() throws {
        let ourplanet = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("ourplanet").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed")
        }
        guard FileManager.default.isExecutableFile(atPath: ourplanet) else {
            throw XCTSkip("ourplanet is not built next to the tests (swift build --build-tests builds it)")
        }

        try tmux("new-session", "-d", "-s", "ourplanet", "-x", "100", "-y", "30", "sh")
        defer {
            _ = try? tmux("kill-server")
            let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
            unlink("\(directory)/tmux-\(getuid())/\(server)")
        }
        try tmux(
            "send-keys", "-t", "ourplanet",
            "env -u EONET_BASE_URL OURPLANET_FIXTURE_FAIL=snow=500 \(ourplanet);"
                + " echo EXIT=$?; echo MODE $(stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(echo|icanon)$')",
            "Enter")

        // The categories at once, with no events yet; then the counts and the bar fill in.
        var screen = try pane(showing: "Wildfires (")
        XCTAssertTrue(screen.contains("Drought (0)"), screen)
        screen = try pane(showing: "100%")
        XCTAssertTrue(screen.contains(" ███████████████████████████ 100%"), screen)  // all 27 cells
        for row in [
            "Wildfires (22) ›", "Severe Storms (12) ›", "Volcanoes (8) ›", "Sea and Lake Ice (6) ›", "Snow (0)",
        ] {
            XCTAssertTrue(screen.contains(row), "\(row) in\n\(screen)")
        }
        // Snow answered 500; the others went on, and the summary says which failed.
        screen = try pane(showing: "⚠ Not downloaded: Snow · 13 categories, 63 events of the last 360 days")

        // End, Enter: the wildfires, newest first, 22 of the last 360 days.
        try tmux("send-keys", "-t", "ourplanet", "End", "Enter")
        screen = try pane("the wildfires") { self.fires($0).count == 22 }
        XCTAssertTrue(screen.contains("Last 360 days"), screen)
        XCTAssertTrue(fires(screen).first!.contains("Wildfire SAN FRANCISCO 2, Starr, Texas"), screen)
        XCTAssertTrue(screen.contains("Wildfire Ponderosa, Deschutes, Oregon"), screen)

        // Shift-Tab to the slider, Left twice: 340 days, and the fire closed 345 days ago is gone.
        try tmux("send-keys", "-t", "ourplanet", "BTab", "Left", "Left")
        screen = try pane(showing: "Last 340 days")
        screen = try pane("21 wildfires") { self.fires($0).count == 21 }
        XCTAssertFalse(screen.contains("Wildfire Ponderosa"), screen)

        try tmux("send-keys", "-t", "ourplanet", "C-c")
        // The shell prints the exit status, then the terminal's modes: cooked again, not -icanon -echo.
        screen = try pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=130"), screen)
        XCTAssertFalse(screen.contains("OurPlanet"), screen)  // the alternate screen is gone
    }
}
