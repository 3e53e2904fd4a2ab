import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// igif offline in a real terminal emulator (tmux), as a person uses it: type a word and see the
/// results; see the highlighted GIF drawn in true-colour half-blocks; move down twice quickly, so the
/// second GIF's download is cancelled (the fixture server, asked through its `/stats`, saw the
/// connection closed); go back to the first, which comes from the cache (the server is not asked
/// again); Ctrl-C, and the shell's terminal back in cooked mode with echo.
///
/// Skipped when tmux is not installed. Uses a tmux server of its own (``TmuxSession``).
final class IGifEndToEndTests: XCTestCase {
    /// The pane with its colours (`-e`): rows of the picture are half-blocks with a true-colour
    /// foreground and background.
    private func colouredHalfBlocks(_ pane: String) -> Int {
        pane.components(separatedBy: "\u{1B}[").filter { $0.hasPrefix("48;2;") && $0.contains("▀") }.count
    }

    private struct Stats: Decodable {
        let searches: [String]
        let media: [String]
        let completed: Int
        let abandoned: Int
    }

    private func stats(port: String) throws -> Stats {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var body: Data?
        URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:\(port)/stats")!) { data, _, _ in
            body = data
            done.signal()
        }
        .resume()
        _ = done.wait(timeout: .now() + 10)
        return try JSONDecoder().decode(Stats.self, from: try XCTUnwrap(body))
    }

    func testSearchSeeAGIFCancelADownloadComeBackFromTheCacheAndQuit() throws {
        let igif = try TmuxSession.program("igif")
        let tmux = try TmuxSession(server: "igif-test-\(getpid())", session: "igif", width: 100, height: 30)
        defer { tmux.kill() }
        // `swift test` sets NO_COLOR, under which a picture is plain blocks: the program runs without it.
        try tmux.run("env -u GIPHY_API_KEY -u NO_COLOR COLORTERM=truecolor \(igif)")
        var screen = try tmux.pane(showing: "Offline Giphy")
        let port = try XCTUnwrap(
            screen.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression).map {
                String(screen[$0].split(separator: ":")[1])
            })

        // A word: one search (debounced), 25 results, the first highlighted and its GIF drawn.
        try tmux.send("cats")
        screen = try tmux.pane(showing: "25 GIFs for “cats”")
        XCTAssertTrue(screen.contains("Cats GIF"), screen)
        XCTAssertTrue(screen.contains("64×40"), screen)
        let coloured = try poll(
            "a frame in true-colour half-blocks", timeout: 15, interval: 0.05, { try tmux.capture(colours: true) },
            until: { self.colouredHalfBlocks($0) > 100 })
        XCTAssertGreaterThan(colouredHalfBlocks(coloured), 100)
        var stats = try poll(
            "the first GIF sent", timeout: 15, interval: 0.05, { try self.stats(port: port) },
            until: { $0.completed == 1 })
        XCTAssertEqual(stats.searches, ["cats"])
        XCTAssertEqual(stats.media.count, 1)

        // Down, and once the second GIF's request has reached the server, Down again before it has
        // all arrived (it takes 800 ms): the second download is cancelled. (Two Downs in one go would
        // cancel the second before it was even sent.)
        try tmux.send("Tab", "Down")
        _ = try poll(
            "the second GIF asked for", timeout: 15, interval: 0.05, { try self.stats(port: port) },
            until: { $0.media.count == 2 })
        try tmux.send("Down")
        stats = try poll(
            "the second download cancelled", timeout: 15, interval: 0.05, { try self.stats(port: port) },
            until: { $0.abandoned >= 1 && $0.media.count == 3 })
        XCTAssertEqual(Set(stats.media).count, 3, "\(stats.media)")

        // Home: back to the first GIF, from the cache; the server is not asked for it again.
        try tmux.send("Home")
        screen = try poll(
            "the first GIF again", timeout: 15, interval: 0.05, { try tmux.capture(colours: true) },
            until: { self.colouredHalfBlocks($0) > 100 && !$0.contains("%") })
        stats = try self.stats(port: port)
        XCTAssertEqual(stats.media.count, 3, "\(stats.media)")
        XCTAssertEqual(stats.media.filter { $0 == stats.media[0] }.count, 1)

        try tmux.assertQuitsWithControlC(shown: "GIFs for")
    }
}
