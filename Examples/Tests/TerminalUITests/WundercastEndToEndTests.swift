import Foundation
import XCTest

/// wundercast offline in a real terminal emulator (tmux), as a person uses it: type a city and press
/// Enter, read the weather; an unknown city; the location button with gpsd fed by gpsfake (the kit's
/// NMEA log: Seoul, then Busan); the map scrolled with an arrow and its overlays redrawn; Ctrl-C, and
/// the shell's terminal back in cooked mode with echo.
///
/// Skipped when tmux is not installed. Without gpsfake the location part checks the fixed location
/// instead (Cairo, set through `RX_FIXED_LOCATION`, with `RX_GPSD` on a port nobody listens on). Uses
/// a tmux server of its own (`-L`) and kills only that server.
final class WundercastEndToEndTests: XCTestCase {
    private let server = "wundercast-test-\(getpid())"
    private static let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/four-fixes.nmea").path

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

    /// Polls the pane until `condition` holds for it (the fixture server answers after 300-600 ms, the
    /// map waits 500 ms for the arrows to rest). The limit only keeps a broken program from hanging
    /// the test.
    private func pane(_ what: String, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(20)
        var pane = ""
        repeat {
            pane = try tmux("capture-pane", "-p", "-t", "wundercast")
            if condition(pane) { return pane }
            usleep(100_000)
        } while Date() < deadline
        XCTFail("the pane never showed \(what):\n\(pane)")
        return pane
    }

    private func pane(showing text: String) throws -> String {
        try pane(text.debugDescription) { $0.contains(text) }
    }

    /// The last line of a pane: the status line.
    private func status(_ pane: String) -> String {
        pane.split(separator: "\n", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
    }

    /// The overlays drawn on the map (rows 8 and on, above the status line): each temperature with its
    /// icon, e.g. "⛅12°".
    private func overlays(_ pane: String) -> [String] {
        let rows = pane.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(7).dropLast(2)
        return rows.flatMap { row in
            row.split(whereSeparator: { $0.isBrailleOrSpace }).filter { $0.contains("°") }.map(String.init)
        }
    }

    func testSearchUnknownCityLocationMapAndQuit() throws {
        let wundercast = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("wundercast").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed")
        }
        guard FileManager.default.isExecutableFile(atPath: wundercast) else {
            throw XCTSkip("wundercast is not built next to the tests (swift build --build-tests builds it)")
        }
        // gpsd fed by gpsfake when both are installed; otherwise a port nobody listens on.
        let gpsfake = ["/usr/bin/gpsfake", "/usr/local/bin/gpsfake"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let hasGPSD = ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd"].contains {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let port = try freePort()
        var gpsd: SpawnedProcessGroup?
        defer { gpsd?.terminate() }
        if let gpsfake, hasGPSD {
            gpsd = try SpawnedProcessGroup(
                "/usr/bin/timeout", ["-s", "INT", "60", gpsfake, "-q", "-c", "0.1", "-P", String(port), Self.log])
            try waitUntilListening(on: port, timeout: 20, process: gpsd!)
        }

        try tmux("new-session", "-d", "-s", "wundercast", "-x", "100", "-y", "30", "sh")
        defer {
            _ = try? tmux("kill-server")
            let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
            unlink("\(directory)/tmux-\(getuid())/\(server)")
        }
        try tmux(
            "send-keys", "-t", "wundercast",
            "env -u OPENWEATHER_API_KEY RX_GPSD=127.0.0.1:\(port) RX_FIXED_LOCATION=30.0626,31.2497 \(wundercast);"
                + " echo EXIT=$?; echo MODE $(stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(echo|icanon)$')",
            "Enter")
        _ = try pane(showing: "Offline weather")

        // A city: its temperature, humidity and icon, and the map centred on it.
        try tmux("send-keys", "-t", "wundercast", "London", "Enter")
        var screen = try pane(showing: "12°C")
        XCTAssertTrue(screen.contains("⛅ London"), screen)
        XCTAssertTrue(screen.contains("humidity 81%"), screen)
        screen = try pane(showing: "9 places around 51.51°N 0.13°W")
        XCTAssertEqual(overlays(screen).count, 9, screen)

        // An unknown city: the service's message on the status line; the search goes on afterwards.
        try tmux("send-keys", "-t", "wundercast", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux("send-keys", "-t", "wundercast", "Atlantis", "Enter")
        screen = try pane(showing: "⚠ Atlantis: city not found")
        XCTAssertFalse(screen.contains("12°C"), screen)

        // The location button (Tab, Enter): gpsd's position, or the fixed one without gpsd.
        try tmux("send-keys", "-t", "wundercast", "Tab", "Enter")
        let places = gpsd == nil ? ["🌞 Cairo"] : ["🌞 Seoul", "⛅ Busan"]
        screen = try pane("the weather at \(places)") { pane in places.contains { pane.contains($0) } }
        screen = try pane("the weather around the location") { self.status($0).contains("places around 3") }
        let before = (status(screen), overlays(screen))
        XCTAssertEqual(before.1.count, 9, screen)

        // Tab to the map, Right: it pans a quarter of its 90°, and the weather around the new centre
        // replaces the overlays.
        try tmux("send-keys", "-t", "wundercast", "Tab", "Right")
        screen = try pane("the weather around the new centre") { pane in
            self.status(pane).contains("places around") && self.status(pane) != before.0
        }
        XCTAssertEqual(overlays(screen).count, 9, screen)
        XCTAssertNotEqual(overlays(screen), before.1, screen)

        try tmux("send-keys", "-t", "wundercast", "C-c")
        // The shell prints the exit status, then the terminal's modes: cooked again, not -icanon -echo.
        screen = try pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=130"), screen)
        XCTAssertFalse(screen.contains("Wundercast"), screen)  // the alternate screen is gone
    }
}

extension Character {
    /// A Braille pattern (the map's land and sea) or a space: what separates the overlays on a row.
    fileprivate var isBrailleOrSpace: Bool {
        self == " " || unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) }
    }
}
