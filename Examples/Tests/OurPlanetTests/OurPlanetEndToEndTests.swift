import ExampleTestSupport
import Foundation
import XCTest

/// ourplanet offline in a real terminal emulator (tmux), as a person uses it: the categories arrive
/// and fill in with counts while the progress bar runs to 100 %, one category failing (the fixture's
/// `OURPLANET_FIXTURE_FAIL`, once) without stopping the others, and `r` retrying it; End and Enter show
/// the wildfires by month; Shift-Tab to the slider, Home (1 day) marks the closed fires dim red before
/// they go and End (360 days) brings them back marked green; Left twice filters them to 340 days, and
/// the table's end shows the fire closed 345 days ago gone; Home and Enter open the first fire's detail
/// pane, Backspace goes back to the list and Left to the categories, where Drought (no events) is not
/// opened; resized to 60×20; Ctrl-C, and the shell's terminal back in cooked mode with echo.
///
/// The fixture's dates are relative to the real clock, so the months' names are not fixed: the
/// headers are recognised by their form (`November 2026 · 8 events`).
/// Skipped when tmux is not installed. Uses a tmux server of its own (``TmuxSession``).
final class OurPlanetEndToEndTests: XCTestCase {
    /// The rows of the events list that show a wildfire (state, date, then the title).
    private func fires(_ pane: String) -> [String] {
        pane.split(separator: "\n").filter { $0.contains(" 20") && $0.contains("  Wildfire ") }.map(String.init)
    }

    /// The month headers shown, `November 2026 · 8 events`, top to bottom.
    private func months(_ pane: String) -> [String] {
        pane.matches(of: /[A-Z][a-z]+ 20\d\d · \d+ events?/).map { String($0.output) }
    }

    /// Whether a row is drawn marked inserted (on green, 30,107,53) or deleted (dim red, 224,108,108).
    private func shows(_ mark: String, _ tmux: TmuxSession) -> Bool {
        let colour = mark == "inserted" ? "48;2;30;107;53m" : "38;2;224;108;108m"
        return (try? tmux.capture(colours: true).contains(colour)) == true
    }

    func testCategoriesProgressEventsDaysAndQuit() throws {
        let ourplanet = try TmuxSession.program("ourplanet")
        let tmux = try TmuxSession(server: "ourplanet-test-\(getpid())", session: "ourplanet", width: 100, height: 30)
        defer { tmux.kill() }
        // In colour, so the marks can be told apart.
        try tmux.run(
            "env -u EONET_BASE_URL NO_COLOR= COLORTERM=truecolor OURPLANET_FIXTURE_FAIL=snow=500x1 \(ourplanet)")

        // The categories at once, with no events yet; then the counts and the bar fill in.
        var screen = try tmux.pane(showing: "Wildfires (")
        XCTAssertTrue(screen.contains("Drought (0)"), screen)
        screen = try tmux.pane(showing: "100%")
        XCTAssertTrue(screen.contains(" ███████████████████████████ 100%"), screen)  // all 27 cells
        for row in [
            "Wildfires (22) ›", "Severe Storms (12) ›", "Volcanoes (8) ›", "Sea and Lake Ice (6) ›", "Snow (0)",
        ] {
            XCTAssertTrue(screen.contains(row), "\(row) in\n\(screen)")
        }
        // Snow answered 500; the others went on, and the summary says which failed and how to retry.
        screen = try tmux.pane(
            showing: "⚠ Not downloaded: Snow — press r to retry · 13 categories, 63 events of the last 360 days")
        // r: the server answers snow this time.
        try tmux.send("r")
        screen = try tmux.pane(showing: "13 categories, 64 events of the last 360 days")
        XCTAssertTrue(screen.contains("Snow (1) ›"), screen)

        // End, Enter: the wildfires by month, newest first, 22 of the last 360 days; as many as fit
        // under their headers (how many depends on the months the clock puts them in).
        try tmux.send("End", "Enter")
        screen = try tmux.pane("the wildfires") { self.fires($0).count > 10 && self.months($0).count > 3 }
        let shown = fires(screen).count
        XCTAssertTrue(screen.contains("Last 360 days"), screen)
        XCTAssertTrue(fires(screen).first!.contains("Wildfire SAN FRANCISCO 2, Starr, Texas"), screen)

        // Shift-Tab to the slider; Home, 1 day: the closed fires marked dim red, then gone, leaving the
        // seven open ones. End, 360 days: they come back marked green, then settle.
        try tmux.send("BTab", "Home")
        _ = try tmux.pane("the closed fires marked deleted") { _ in self.shows("deleted", tmux) }
        screen = try tmux.pane("the open fires alone") { self.fires($0).count == 7 && !self.shows("deleted", tmux) }
        XCTAssertTrue(screen.contains("Last 1 day"), screen)
        XCTAssertTrue(fires(screen).allSatisfy { $0.contains("open   20") }, screen)
        try tmux.send("End")
        _ = try tmux.pane("the closed fires marked inserted") { _ in self.shows("inserted", tmux) }
        screen = try tmux.pane("the fires back") {
            self.fires($0).count == shown && !self.shows("inserted", tmux)
        }
        XCTAssertTrue(screen.contains("Last 360 days"), screen)

        // Left twice: 340 days, and at the end of the list the fire closed 345 days ago is gone.
        try tmux.send("Left", "Left")
        screen = try tmux.pane(showing: "Last 340 days")
        try tmux.send("Tab", "End")
        screen = try tmux.pane("the end of the list") { $0.contains("Wildfire Mesa Verde") }
        XCTAssertFalse(screen.contains("Wildfire Ponderosa"), screen)
        XCTAssertEqual(months(screen).last?.hasSuffix(" · 1 event"), true, screen)

        // Home, Enter: the first fire's detail pane, over the list (polled until the whole frame is
        // drawn: a capture may land while the frame's bytes are still arriving).
        try tmux.send("Home", "Enter")
        screen = try tmux.pane("the detail pane") { $0.contains("Sources: IRWIN") && self.fires($0).isEmpty }
        XCTAssertTrue(screen.contains("Categories: wildfires"), screen)
        XCTAssertTrue(screen.contains("Coordinates: "), screen)
        XCTAssertTrue(screen.contains("Wildfire SAN FRANCISCO 2, Starr, Texas"), screen)
        // Backspace: the list again; Left: the categories, where Drought has nothing to open.
        try tmux.send("BSpace")
        screen = try tmux.pane("the list again") { self.fires($0).count == shown }
        try tmux.send("Left", "Home", "Enter")
        screen = try tmux.pane(showing: "Drought: no events to show")
        XCTAssertEqual(fires(screen).count, shown, "the wildfires still shown")

        try tmux.resize(width: 60, height: 20)
        screen = try tmux.pane("60 columns") { $0.contains("Wildfires (22) ›") && $0.contains("Last 340 days") }

        try tmux.assertQuitsWithControlC(shown: "OurPlanet")
    }
}
