import Foundation
import XCTest

/// wundercast offline in a real terminal emulator (tmux), as a person uses it: type a city and press
/// Enter, read the weather; an unknown city; the location button with gpsd fed by gpsfake (the kit's
/// NMEA log: Seoul, then Busan); the map scrolled with an arrow and its overlays redrawn; Ctrl-C, and
/// the shell's terminal back in cooked mode with echo.
///
/// Skipped when tmux is not installed. Without gpsfake the location part checks the fixed location
/// instead (Cairo, set through `RX_FIXED_LOCATION`, with `RX_GPSD` on a port nobody listens on). Uses
/// a tmux server of its own (``TmuxSession``).
final class WundercastEndToEndTests: XCTestCase {
    private static let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/four-fixes.nmea").path

    /// The last line of a pane: the status line.
    private func status(_ pane: String) -> String { TmuxSession.lastLine(of: pane) }

    /// The overlays drawn on the map (rows 8 and on, above the status line): each temperature with its
    /// icon, e.g. "⛅12°".
    private func overlays(_ pane: String) -> [String] {
        let rows = pane.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(7).dropLast(2)
        return rows.flatMap { row in
            row.split(whereSeparator: { $0.isBrailleOrSpace }).filter { $0.contains("°") }.map(String.init)
        }
    }

    func testSearchUnknownCityLocationMapAndQuit() throws {
        let wundercast = try TmuxSession.program("wundercast")
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

        let tmux = try TmuxSession(
            server: "wundercast-test-\(getpid())", session: "wundercast", width: 100, height: 30)
        defer { tmux.kill() }
        try tmux.run(
            "env -u OPENWEATHER_API_KEY RX_GPSD=127.0.0.1:\(port) RX_FIXED_LOCATION=30.0626,31.2497 \(wundercast)")
        _ = try tmux.pane(showing: "Offline weather")

        // A city: its temperature, humidity and icon, and the map centred on it.
        try tmux.send("London", "Enter")
        var screen = try tmux.pane(showing: "12°C")
        XCTAssertTrue(screen.contains("⛅ London"), screen)
        XCTAssertTrue(screen.contains("humidity 81%"), screen)
        screen = try tmux.pane(showing: "9 places around 51.51°N 0.13°W")
        XCTAssertEqual(overlays(screen).count, 9, screen)

        // An unknown city: the service's message on the status line; the search goes on afterwards.
        try tmux.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.send("Atlantis", "Enter")
        screen = try tmux.pane(showing: "⚠ Atlantis: city not found")
        XCTAssertFalse(screen.contains("12°C"), screen)

        // The location button (Tab, Enter): gpsd's position, or the fixed one without gpsd.
        try tmux.send("Tab", "Enter")
        let places = gpsd == nil ? ["🌞 Cairo"] : ["🌞 Seoul", "⛅ Busan"]
        screen = try tmux.pane("the weather at \(places)") { pane in places.contains { pane.contains($0) } }
        screen = try tmux.pane("the weather around the location") { self.status($0).contains("places around 3") }
        let before = (status(screen), overlays(screen))
        XCTAssertEqual(before.1.count, 9, screen)

        // Tab to the map, Right: it pans a quarter of its 90°, and the weather around the new centre
        // replaces the overlays.
        try tmux.send("Tab", "Right")
        screen = try tmux.pane("the weather around the new centre") { pane in
            self.status(pane).contains("places around") && self.status(pane) != before.0
        }
        XCTAssertEqual(overlays(screen).count, 9, screen)
        XCTAssertNotEqual(overlays(screen), before.1, screen)

        try tmux.assertQuitsWithControlC(shown: "Wundercast")
    }
}

extension Character {
    /// A Braille pattern (the map's land and sea) or a space: what separates the overlays on a row.
    fileprivate var isBrailleOrSpace: Bool {
        self == " " || unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) }
    }
}
