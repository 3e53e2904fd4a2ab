import ExampleTestSupport
import Foundation
import XCTest

/// The stream inspector (F2) in wundercast offline, in a real terminal emulator (tmux): a search's
/// lanes (the search input, the search, `running` going true then false); the search tag paused from
/// the inspector, a second search held back from the labels until stepped; Ctrl-C restoring the
/// terminal. Skipped when tmux is not installed.
final class WundercastInspectorEndToEndTests: XCTestCase {
    private static let rows = 30

    private func lines(_ pane: String) -> [String] {
        pane.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The lane of `tag`: its line (two marks, the tag, the timeline).
    private func lane(_ tag: String, in pane: String) -> String? {
        lines(pane).first { $0.dropFirst(2).hasPrefix(tag + " ") }
    }

    /// The inspector's detail line (the selected event), above its message line.
    private func detail(_ pane: String) -> String {
        let all = lines(pane)
        return all.count >= Self.rows - 1 ? all[Self.rows - 2] : ""
    }

    func testLanesPauseAndStep() throws {
        let wundercast = try TmuxSession.program("wundercast")
        let tmux = try TmuxSession(
            server: "wundercast-inspector-\(getpid())", session: "wundercast", width: 100, height: Self.rows)
        defer { tmux.kill() }
        // gpsd on a port nobody listens on: the location is not used here.
        let port = try freePort()
        try tmux.run("env -u OPENWEATHER_API_KEY RX_GPSD=127.0.0.1:\(port) \(wundercast)")
        _ = try tmux.pane(showing: "Offline weather")

        try tmux.send("London", "Enter")
        _ = try tmux.pane(showing: "12°C")

        // F2: a lane per tag, once the map has settled on London (its input and grid); `location` is
        // subscribed and silent.
        try tmux.send("F2")
        var screen = try tmux.pane("the inspector's six lanes") { pane in
            pane.contains("Inspector · 6 tags") && self.lane("grid", in: pane)?.contains("●") == true
        }
        for tag in ["search input", "search", "running"] {
            let line = try XCTUnwrap(lane(tag, in: screen), "no lane \(tag):\n\(screen)")
            XCTAssertTrue(line.contains("●"), "no element in \(tag):\n\(screen)")
        }
        // Subscribed at the start (the inspector is attached before the streams are built), never
        // emitting: the location button was not pressed. (A busier lane's `^` may share its column, 200
        // ms, with its first element, drawn over it.)
        let location = try XCTUnwrap(lane("location", in: screen), screen)
        XCTAssertTrue(location.contains("^") && !location.contains("●"), screen)
        // The lanes, sorted: grid, location, map input, running, search, search input. Down three times:
        // `running`, its newest element false, the one before true.
        try tmux.send("Down", "Down", "Down")
        screen = try tmux.pane("running's last element") { self.detail($0).hasPrefix("running · next(false)") }
        try tmux.send("Left")
        screen = try tmux.pane("running's element before") { self.detail($0).hasPrefix("running · next(true)") }
        // The search input's element: what was typed.
        try tmux.send("Down", "Down")
        screen = try tmux.pane("the search input") {
            self.detail($0).contains("search input · next(Optional(\"London\"))")
        }

        // Up to `search`, p: paused. F2 closes the inspector; a second search.
        try tmux.send("Up", "p")
        screen = try tmux.pane(showing: "paused search")
        XCTAssertTrue(lane("search", in: screen)?.hasPrefix("⏸ search") ?? false, screen)
        try tmux.send("F2")
        _ = try tmux.pane(showing: "Enter: search")
        try tmux.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.send("Paris", "Enter")
        // The answer arrives and is held: the inspector shows it (one held), the labels never do.
        try tmux.send("F2")
        screen = try tmux.pane("Paris held") { pane in
            self.detail(pane).hasPrefix("search · 1 held · next(Weather(cityName: \"Paris\"")
        }
        try tmux.send("F2")
        screen = try tmux.pane(showing: "Enter: search")
        Thread.sleep(forTimeInterval: 1)
        screen = try tmux.capture()
        XCTAssertFalse(screen.contains("Paris 15°C") || screen.contains("⛅ Paris"), screen)
        // The city's labels (rows 4 and 5) are hidden while it searches (the map's centre label, row 6,
        // still says London).
        XCTAssertFalse(lines(screen)[5].contains("°C"), "the labels are hidden while searching:\n\(screen)")
        XCTAssertTrue(lines(screen)[6].contains("London 12°C"), screen)

        // s delivers it: the labels show Paris.
        try tmux.send("F2", "s")
        screen = try tmux.pane(showing: "stepped search (0 held)")
        try tmux.send("F2")
        screen = try tmux.pane(showing: "15°C")
        XCTAssertTrue(screen.contains("⛅ Paris"), screen)

        try tmux.assertQuitsWithControlC(shown: "Wundercast")
    }
}
