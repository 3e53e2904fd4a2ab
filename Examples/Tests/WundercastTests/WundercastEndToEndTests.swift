import ExampleTestSupport
import Foundation
import XCTest

/// wundercast offline in a real terminal emulator (tmux), as a person uses it: type a city and press
/// Enter, read the weather; an unknown city; the location button with gpsd fed by gpsfake (the kit's
/// NMEA log: Seoul, then Busan); the map panned with an arrow, its overlays redrawn while the city's
/// weather stays on screen in every frame; the map button hiding and showing the map; Ctrl-C, and the
/// shell's terminal back in cooked mode with echo.
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

    /// The map's rows (8 and on, above the status line).
    private func mapRows(_ pane: String) -> [Substring] {
        Array(pane.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(7).dropLast(2))
    }

    /// Row `index` of a pane: 4 is the city's icon and name, 6 the map's button, activity and centre.
    private func row(_ index: Int, of pane: String) -> String {
        pane.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(index).first.map(String.init) ?? ""
    }

    private func hasBraille(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }
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
        // The map's centre (the city) and the eight points around it.
        screen = try tmux.pane(showing: "8 places around 51.51°N 0.13°W")
        XCTAssertEqual(overlays(screen).count, 9, screen)
        XCTAssertTrue(row(6, of: screen).contains("centre: ⛅ London 12°C"), screen)

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

        // Tab to the map's button and on to the map, Right: it pans a quarter of its 90°, and the
        // weather at and around the new centre replaces the overlays. Meanwhile the map's indicator
        // spins and the city's weather stays: every frame captured while the map loads shows it (the
        // pan is the map's activity, not the city's; hiding the labels here was the blink).
        let place = try XCTUnwrap(places.first { screen.contains($0) }, screen)
        try tmux.send("Tab", "Tab", "Right")
        var frames: [String] = []
        screen = try tmux.pane("the weather around the new centre") { pane in
            frames.append(pane)
            return self.status(pane).contains("places around") && self.status(pane) != before.0
        }
        XCTAssertGreaterThan(frames.count, 2, "the map's loading was not seen")
        for frame in frames {
            XCTAssertTrue(row(4, of: frame).contains(place), "the city's weather blinked out:\n\(frame)")
        }
        // The spinner is the one Braille character on the button's row.
        XCTAssertTrue(frames.contains { hasBraille(row(6, of: $0)) }, "the map's indicator never spun")
        XCTAssertEqual(overlays(screen).count, 9, screen)
        XCTAssertNotEqual(overlays(screen), before.1, screen)

        // Back to the map's button (Shift-Tab), Enter: the map is hidden, the city's weather stays;
        // Enter again: the map is back, with its overlays.
        try tmux.send("BTab", "Enter")
        // Polled until the map's rows are blank: the button's new title can be on screen while the
        // rest of the frame is still being written.
        screen = try tmux.pane("the map hidden") { pane in
            pane.contains("[ Show map ]") && !self.mapRows(pane).contains { self.hasBraille($0) }
        }
        XCTAssertEqual(overlays(screen).count, 0, screen)
        XCTAssertTrue(row(4, of: screen).contains(place), screen)
        try tmux.send("Enter")
        screen = try tmux.pane(showing: "[ Hide map ]")
        XCTAssertTrue(mapRows(screen).contains { hasBraille($0) }, screen)
        XCTAssertEqual(overlays(screen).count, 9, screen)

        try tmux.assertQuitsWithControlC(shown: "Wundercast")
    }
}

extension Character {
    /// A Braille pattern (the map's land and sea) or a space: what separates the overlays on a row.
    fileprivate var isBrailleOrSpace: Bool {
        self == " " || unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) }
    }
}
