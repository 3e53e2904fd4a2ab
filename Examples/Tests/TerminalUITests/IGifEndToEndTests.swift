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
/// Skipped when tmux is not installed. Uses a tmux server of its own (`-L`) and kills only that server.
final class IGifEndToEndTests: XCTestCase {
    private let server = "igif-test-\(getpid())"

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

    /// Polls until `condition` holds for what `read` returns. The limit only keeps a broken program
    /// from hanging the test.
    private func poll<Value>(_ what: String, _ read: () throws -> Value, until condition: (Value) -> Bool) throws
        -> Value
    {
        let deadline = Date().addingTimeInterval(15)
        var value = try read()
        while !condition(value) {
            guard Date() < deadline else {
                XCTFail("never saw \(what): \(value)")
                return value
            }
            usleep(50_000)
            value = try read()
        }
        return value
    }

    private func pane(showing text: String) throws -> String {
        try poll(text.debugDescription, { try tmux("capture-pane", "-p", "-t", "igif") }, until: { $0.contains(text) })
    }

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
        let igif = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("igif").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed")
        }
        guard FileManager.default.isExecutableFile(atPath: igif) else {
            throw XCTSkip("igif is not built next to the tests (swift build --build-tests builds it)")
        }
        try tmux("new-session", "-d", "-s", "igif", "-x", "100", "-y", "30", "sh")
        defer {
            _ = try? tmux("kill-server")
            let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
            unlink("\(directory)/tmux-\(getuid())/\(server)")
        }
        // `swift test` sets NO_COLOR, under which a picture is plain blocks: the program runs without it.
        try tmux(
            "send-keys", "-t", "igif",
            "env -u GIPHY_API_KEY -u NO_COLOR COLORTERM=truecolor \(igif);"
                + " echo EXIT=$?; echo MODE $(stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(echo|icanon)$')",
            "Enter")
        var screen = try pane(showing: "Offline Giphy")
        let port = try XCTUnwrap(
            screen.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression).map {
                String(screen[$0].split(separator: ":")[1])
            })

        // A word: one search (debounced), 25 results, the first highlighted and its GIF drawn.
        try tmux("send-keys", "-t", "igif", "cats")
        screen = try pane(showing: "25 GIFs for “cats”")
        XCTAssertTrue(screen.contains("Cats GIF"), screen)
        XCTAssertTrue(screen.contains("64×40"), screen)
        let coloured = try poll(
            "a frame in true-colour half-blocks", { try tmux("capture-pane", "-p", "-e", "-t", "igif") },
            until: { self.colouredHalfBlocks($0) > 100 })
        XCTAssertGreaterThan(colouredHalfBlocks(coloured), 100)
        var stats = try poll("the first GIF sent", { try self.stats(port: port) }, until: { $0.completed == 1 })
        XCTAssertEqual(stats.searches, ["cats"])
        XCTAssertEqual(stats.media.count, 1)

        // Down, and once the second GIF's request has reached the server, Down again before it has
        // all arrived (it takes 800 ms): the second download is cancelled. (Two Downs in one go would
        // cancel the second before it was even sent.)
        try tmux("send-keys", "-t", "igif", "Tab", "Down")
        _ = try poll("the second GIF asked for", { try self.stats(port: port) }, until: { $0.media.count == 2 })
        try tmux("send-keys", "-t", "igif", "Down")
        stats = try poll(
            "the second download cancelled", { try self.stats(port: port) },
            until: { $0.abandoned >= 1 && $0.media.count == 3 })
        XCTAssertEqual(Set(stats.media).count, 3, "\(stats.media)")

        // Home: back to the first GIF, from the cache; the server is not asked for it again.
        try tmux("send-keys", "-t", "igif", "Home")
        screen = try poll(
            "the first GIF again", { try tmux("capture-pane", "-p", "-e", "-t", "igif") },
            until: { self.colouredHalfBlocks($0) > 100 && !$0.contains("%") })
        stats = try self.stats(port: port)
        XCTAssertEqual(stats.media.count, 3, "\(stats.media)")
        XCTAssertEqual(stats.media.filter { $0 == stats.media[0] }.count, 1)

        try tmux("send-keys", "-t", "igif", "C-c")
        screen = try pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=130"), screen)
        XCTAssertFalse(screen.contains("GIFs for"), screen)  // the alternate screen is gone
    }
}
