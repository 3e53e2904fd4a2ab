import Foundation
import XCTest

/// ourplanet offline in a real terminal emulator (tmux), as a person uses it: the categories arrive
/// and fill in with counts while the progress bar runs to 100 %, one category failing (the fixture's
/// `OURPLANET_FIXTURE_FAIL`) without stopping the others; End and Enter show the wildfires; Shift-Tab to
/// the slider and Left twice filters them to 340 days; Ctrl-C, and the shell's terminal back in cooked
/// mode with echo.
///
/// Skipped when tmux is not installed. Uses a tmux server of its own (``TmuxSession``).
final class OurPlanetEndToEndTests: XCTestCase {
    /// The rows of the events list that show a wildfire (state, date, then the title).
    private func fires(_ pane: String) -> [String] {
        pane.split(separator: "\n").filter { $0.contains(" 20") && $0.contains("  Wildfire ") }.map(String.init)
    }

    func testCategoriesProgressEventsDaysAndQuit() throws {
        let ourplanet = try TmuxSession.program("ourplanet")
        let tmux = try TmuxSession(server: "ourplanet-test-\(getpid())", session: "ourplanet", width: 100, height: 30)
        defer { tmux.kill() }
        try tmux.run("env -u EONET_BASE_URL OURPLANET_FIXTURE_FAIL=snow=500 \(ourplanet)")

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
        // Snow answered 500; the others went on, and the summary says which failed.
        screen = try tmux.pane(showing: "⚠ Not downloaded: Snow · 13 categories, 63 events of the last 360 days")

        // End, Enter: the wildfires, newest first, 22 of the last 360 days.
        try tmux.send("End", "Enter")
        screen = try tmux.pane("the wildfires") { self.fires($0).count == 22 }
        XCTAssertTrue(screen.contains("Last 360 days"), screen)
        XCTAssertTrue(fires(screen).first!.contains("Wildfire SAN FRANCISCO 2, Starr, Texas"), screen)
        XCTAssertTrue(screen.contains("Wildfire Ponderosa, Deschutes, Oregon"), screen)

        // Shift-Tab to the slider, Left twice: 340 days, and the fire closed 345 days ago is gone.
        try tmux.send("BTab", "Left", "Left")
        screen = try tmux.pane(showing: "Last 340 days")
        screen = try tmux.pane("21 wildfires") { self.fires($0).count == 21 }
        XCTAssertFalse(screen.contains("Wildfire Ponderosa"), screen)

        try tmux.assertQuitsWithControlC(shown: "OurPlanet")
    }
}
