import Foundation
import XCTest

/// A program in a real terminal emulator: one tmux session running `sh`, on a tmux server of its own
/// (`-L`), so the end-to-end tests never touch the user's sessions and kill only that server. The
/// examples' tests use it, and so does the Bluetooth package's (this target is a library product).
///
/// Commands are spawned and waited for directly with `waitpid`: Foundation's `Process` did not notice
/// tmux's client exit here (it stayed a zombie), and a pipe would be inherited and held open for ever
/// by the server `new-session` starts.
public final class TmuxSession {
    public let server: String
    public let session: String

    /// The path of `program`, built next to the tests (beside the test bundle, or beside the directory
    /// that holds it); skips the test when tmux is not installed or the program is not built.
    public static func program(_ program: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed (apt-get install tmux)")
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent(program).path }
        guard let path = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("\(program) is not built next to the tests (swift build --build-tests builds it)")
        }
        return path
    }

    /// Starts the server `server` with a session `session` of `width` × `height` running `sh`.
    public init(server: String, session: String, width: Int, height: Int) throws {
        self.server = server
        self.session = session
        try tmux("new-session", "-d", "-s", session, "-x", String(width), "-y", String(height), "sh")
    }

    /// Kills the server and removes the socket file tmux leaves behind (in tmux's default directory for
    /// this user).
    public func kill() {
        _ = try? tmux("kill-server")
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(server)")
    }

    /// Runs a tmux command on this server and returns what it printed.
    @discardableResult
    public func tmux(_ arguments: String...) throws -> String {
        try tmux(arguments: arguments)
    }

    private func tmux(arguments: [String]) throws -> String {
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
        // posix_spawn returns its error rather than setting errno.
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ)
        guard spawned == 0 else { throw NSError(domain: "posix_spawn", code: Int(spawned)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Types `keys` (tmux key names or text) into the session.
    public func send(_ keys: String...) throws {
        _ = try tmux(arguments: ["send-keys", "-t", session] + keys)
    }

    /// Resizes the session's window.
    public func resize(width: Int, height: Int) throws {
        try tmux("resize-window", "-t", session, "-x", String(width), "-y", String(height))
    }

    /// Runs `commandLine` in the session's shell, which then prints the exit status (`EXIT=130`) and the
    /// terminal's modes (`MODE icanon echo` when cooked again).
    public func run(_ commandLine: String) throws {
        try send(
            "\(commandLine); echo EXIT=$?; echo MODE $(stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(echo|icanon)$')",
            "Enter")
    }

    /// The pane's text; with `colours`, with its SGR sequences (`-e`).
    public func capture(colours: Bool = false) throws -> String {
        colours ? try tmux("capture-pane", "-p", "-e", "-t", session) : try tmux("capture-pane", "-p", "-t", session)
    }

    /// Polls the pane (with `colours`, with its SGR sequences) until `condition` holds for it, for at
    /// most `timeout` seconds. The limit only keeps a broken program from hanging the test.
    @discardableResult
    public func pane(
        _ what: String, timeout: TimeInterval = 20, colours: Bool = false, file: StaticString = #filePath,
        line: UInt = #line, until condition: (String) -> Bool
    ) throws -> String {
        try poll(
            what, timeout: timeout, interval: 0.1, file: file, line: line, { try capture(colours: colours) },
            until: condition)
    }

    /// Polls the pane until it shows `text` (a program's first frame takes a moment under load).
    @discardableResult
    public func pane(
        showing text: String, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        try pane(text.debugDescription, timeout: timeout, file: file, line: line) { $0.contains(text) }
    }

    /// Presses Ctrl-C and checks the program ended with status 130, the shell's terminal is back in
    /// cooked mode with echo, and the alternate screen, where the program showed `shown`, is gone.
    public func assertQuitsWithControlC(shown: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try send("C-c")
        let screen = try pane(showing: "MODE icanon echo", file: file, line: line)
        XCTAssertTrue(screen.contains("EXIT=130"), screen, file: file, line: line)
        XCTAssertFalse(screen.contains(shown), screen, file: file, line: line)
    }

    /// The line of a pane captured with `colours` that is drawn in reverse video (the highlighted row of
    /// the focused list), without its escapes; nil when there is none.
    public static func highlightedLine(_ colouredPane: String) -> String? {
        colouredPane.split(separator: "\n").first { $0.contains("\u{1B}[7m") || $0.contains("\u{1B}[0;7m") }
            .map { String($0).replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }
    }

    /// The pane's last line (tmux prints every row of the pane, blank ones too): the status line.
    public static func lastLine(of pane: String) -> String {
        pane.split(separator: "\n", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
    }
}

/// Polls until `condition` holds for what `read` returns, every `interval` seconds. The limit only keeps
/// a broken program from hanging the test.
public func poll<Value>(
    _ what: String, timeout: TimeInterval, interval: TimeInterval, file: StaticString = #filePath,
    line: UInt = #line, _ read: () throws -> Value, until condition: (Value) -> Bool
) throws -> Value {
    let deadline = Date().addingTimeInterval(timeout)
    var value = try read()
    while !condition(value) {
        guard Date() < deadline else {
            XCTFail("never saw \(what):\n\(value)", file: file, line: line)
            return value
        }
        usleep(useconds_t(interval * 1_000_000))
        value = try read()
    }
    return value
}
