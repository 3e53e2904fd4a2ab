import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A program in a real terminal emulator: one tmux session running `sh` on a tmux server of its own
/// (`-L`), so that the test never touches a person's sessions and kills only its own server.
///
/// tmux is spawned and waited for with `posix_spawn` and `waitpid`, its output through a file: a pipe
/// would be inherited by the server `new-session` starts and held open for ever.
final class Tmux {
    let server: String
    let session = "explorer"

    /// The path of `program`, built next to the tests; skips the test when tmux is missing or the
    /// program was not built (`swift build --build-tests` and `swift test` build it).
    static func program(_ program: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed (apt-get install tmux)")
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent(program).path }
        guard let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("\(program) is not built next to the tests: swift build --product \(program)")
        }
        return path
    }

    /// A server of its own with a session of `width` × `height` running `sh`.
    init(width: Int, height: Int) throws {
        server = "ble-explorer-test-\(getpid())"
        try tmux("new-session", "-d", "-s", session, "-x", String(width), "-y", String(height), "sh")
    }

    /// Kills the server and removes the socket tmux leaves.
    func kill() {
        _ = try? tmux("kill-server")
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(server)")
    }

    @discardableResult
    func tmux(_ arguments: String...) throws -> String { try run(arguments) }

    private func run(_ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "\(server)-\(UUID().uuidString)"
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
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ)
        guard spawned == 0 else { throw NSError(domain: "posix_spawn", code: Int(spawned)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Types `keys` (tmux key names, or text).
    func send(_ keys: String...) throws { _ = try run(["send-keys", "-t", session] + keys) }

    func resize(width: Int, height: Int) throws {
        try tmux("resize-window", "-t", session, "-x", String(width), "-y", String(height))
    }

    /// Runs `commandLine` in the shell, which afterwards prints its status (`EXIT=0`) and the
    /// terminal's modes (`MODE icanon echo` once cooked again).
    func start(_ commandLine: String) throws {
        try send(
            "\(commandLine); echo EXIT=$?; echo MODE $(stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(echo|icanon)$')",
            "Enter")
    }

    /// The pane's text; with `colours`, with its SGR sequences.
    func capture(colours: Bool = false) throws -> String {
        colours ? try tmux("capture-pane", "-p", "-e", "-t", session) : try tmux("capture-pane", "-p", "-t", session)
    }

    /// Polls the pane until `condition` holds for it, for at most `timeout` seconds (a limit that only
    /// keeps a broken program from hanging the test).
    @discardableResult
    func pane(
        _ what: String, timeout: TimeInterval = 10, colours: Bool = false, file: StaticString = #filePath,
        line: UInt = #line, until condition: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = try capture(colours: colours)
        while !condition(text) {
            guard Date() < deadline else {
                XCTFail("never saw \(what):\n\(text)", file: file, line: line)
                return text
            }
            usleep(50_000)
            text = try capture(colours: colours)
        }
        return text
    }

    /// Polls until the pane shows `text`.
    @discardableResult
    func pane(showing text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line)
        throws -> String
    {
        try pane(text.debugDescription, timeout: timeout, file: file, line: line) { $0.contains(text) }
    }

    /// The line drawn in reverse video (the highlighted row of the focused list), without its escapes.
    static func highlightedLine(_ colouredPane: String) -> String? {
        colouredPane.split(separator: "\n").first { $0.contains("\u{1B}[7m") || $0.contains("\u{1B}[0;7m") }
            .map { String($0).replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }
    }

    /// The pane's last line: the status line.
    static func lastLine(_ pane: String) -> String {
        pane.split(separator: "\n", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
    }
}
