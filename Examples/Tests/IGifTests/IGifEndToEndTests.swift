import ExampleTestSupport
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// igif offline in a real terminal emulator (tmux) at 80×24, as a person uses it: type a word and see
/// a grid of six GIF cells, each downloading and playing its own GIF in true-colour half-blocks;
/// scroll down a row (the top row's cells are reused for the next three GIFs) and straight back up
/// while those three are still downloading: their cells leave the screen and the fixture server,
/// asked through its `/stats`, sees three connections closed; the first row comes back from the cache
/// (the server is not asked again); a GIF with a loop count plays its three times and stops; resized
/// to 60×20 the grid has two columns; Ctrl-C, and the shell's terminal back in cooked mode with echo.
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
        let body = Locked<Data?>(nil)
        URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:\(port)/stats")!) { data, _, _ in
            body.set(data)
            done.signal()
        }
        .resume()
        _ = done.wait(timeout: .now() + 10)
        return try JSONDecoder().decode(Stats.self, from: try XCTUnwrap(body.get()))
    }

    func testAGridOfGIFsScrollsReusesItsCellsAndCancelsTheirDownloads() throws {
        let igif = try TmuxSession.program("igif")
        let tmux = try TmuxSession(server: "igif-test-\(getpid())", session: "igif", width: 80, height: 24)
        defer { tmux.kill() }
        // `swift test` sets NO_COLOR, under which a picture is plain blocks: the program runs without it.
        try tmux.run("env -u GIPHY_API_KEY -u NO_COLOR COLORTERM=truecolor \(igif)")
        var screen = try tmux.pane(showing: "Offline Giphy")
        let port = try XCTUnwrap(
            screen.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression).map {
                String(screen[$0].split(separator: ":")[1])
            })

        // A word: one search (debounced), 25 results, six cells each downloading its GIF at once.
        try tmux.send("cats")
        screen = try tmux.pane(showing: "25 GIFs for “cats”")
        XCTAssertTrue(screen.contains("Cats GIF"), screen)
        // Each cell's progress bar while its GIF arrives (800 ms).
        _ = try poll(
            "progress bars", timeout: 15, interval: 0.02, { try tmux.capture() },
            until: { $0.components(separatedBy: "%").count - 1 >= 3 })
        var stats = try poll(
            "six GIFs sent", timeout: 15, interval: 0.05, { try self.stats(port: port) },
            until: { $0.completed == 6 })
        XCTAssertEqual(stats.searches, ["cats"])
        XCTAssertEqual(Set(stats.media).count, 6)
        let firstRow = Array(stats.media.prefix(3))
        // Six pictures of 13 × 4 half-blocks each.
        let coloured = try poll(
            "six GIFs playing", timeout: 15, interval: 0.05, { try tmux.capture(colours: true) },
            until: { self.colouredHalfBlocks($0) >= 6 * 40 })
        XCTAssertGreaterThanOrEqual(colouredHalfBlocks(coloured), 6 * 40)
        // One in three fixture GIFs plays three times and stops.
        _ = try poll(
            "a GIF that played its loops", timeout: 15, interval: 0.1, { try tmux.capture() },
            until: { $0.contains("■ plays 3 times") })

        // Tab to the grid, Down twice: the third row comes on, the first row's cells are reused for it.
        try tmux.send("Tab", "Down", "Down")
        stats = try poll(
            "the third row asked for", timeout: 15, interval: 0.05, { try self.stats(port: port) },
            until: { $0.media.count == 9 })
        // Up twice at once, while those three are still arriving (800 ms each): their cells leave the
        // screen and the downloads are cancelled; the first row comes back from the cache.
        try tmux.send("Up", "Up")
        stats = try poll(
            "the third row's downloads cancelled", timeout: 15, interval: 0.05, { try self.stats(port: port) },
            until: { $0.abandoned == 3 })
        XCTAssertEqual(stats.completed, 6)
        _ = try poll(
            "the first row again", timeout: 15, interval: 0.05, { try tmux.capture(colours: true) },
            until: { self.colouredHalfBlocks($0) >= 6 * 40 && !$0.contains("%") })
        stats = try self.stats(port: port)
        XCTAssertEqual(stats.media.count, 9, "\(stats.media)")
        XCTAssertEqual(stats.media.filter(firstRow.contains).count, 3, "the first row from the cache")

        // 60×20: two columns of cells (29 wide, where three were 26), the frame around the highlighted
        // one.
        func frameWidth(_ pane: String) -> Int? {
            pane.split(separator: "\n").first { $0.hasPrefix(" ┌") }?.trimmingCharacters(in: .whitespaces).count
        }
        XCTAssertEqual(frameWidth(try tmux.capture()), 26)
        try tmux.resize(width: 60, height: 20)
        _ = try poll(
            "two columns", timeout: 10, interval: 0.05, { try tmux.capture() }, until: { frameWidth($0) == 29 })

        try tmux.assertQuitsWithControlC(shown: "GIFs for")
    }
}
