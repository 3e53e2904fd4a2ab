import ExampleTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `ble-explorer` in a real terminal emulator (tmux), as a person tries it: the scan fills, Enter on
/// the heart-rate monitor connects, n on its measurement plots the heart rate, a resize redraws, F2
/// turns the simulated radio off and the status line says so, q quits; and Ctrl-C on another run.
/// Each time the shell's terminal is back: the program's screen gone, cooked mode with echo, and the
/// private dbus-daemon stopped with it.
///
/// Skipped when tmux is not installed or the program is not built. Uses a tmux server of its own
/// (``TmuxSession``, from the examples' ExampleTestSupport).
final class ExplorerEndToEndTests: XCTestCase {
    private var program = ""
    private var tmux: TmuxSession!

    override func setUpWithError() throws {
        program = try TmuxSession.program("ble-explorer")
        tmux = try TmuxSession(server: "ble-explorer-test-\(getpid())", session: "explorer", width: 120, height: 40)
    }

    override func tearDown() {
        tmux?.kill()
        super.tearDown()
    }

    func testScanConnectWatchRadioOffResizeAndQuit() throws {
        try tmux.run("env -u RX_BLUEZ \(program)")
        try tmux.pane(showing: "Advertising services · 6")
        XCTAssertTrue(try tmux.capture().contains("Bluetooth on · simulated BlueZ"))
        let daemons = try daemonsOfExplorer()
        XCTAssertEqual(daemons.count, 1, "ble-explorer runs its own dbus-daemon")

        // To the heart-rate monitor (the list is ordered by signal, which moves): from the top down
        // until it is the highlighted row.
        try tmux.send("Home")
        var highlighted = ""
        for _ in 0..<8 {
            highlighted =
                try TmuxSession.highlightedLine(
                    tmux.pane("a highlighted row", colours: true) {
                        TmuxSession.highlightedLine($0) != nil
                    }) ?? ""
            if highlighted.hasPrefix("HRM Sim") { break }
            try tmux.send("Down")
            usleep(100_000)
        }
        XCTAssertTrue(highlighted.hasPrefix("HRM Sim"), highlighted)
        try tmux.send("Enter")
        try tmux.pane(showing: "HRM Sim · C4:7C:8D:6A:10:01 · connected")
        var screen = try tmux.pane(showing: "Connected to HRM Sim: 5 services, 9 characteristics.")
        XCTAssertTrue(screen.contains("  ├ Heart Rate Measurement (2A37)"), screen)

        // Down to the measurement, n: the plot fills with heart rates.
        for _ in 0..<6 { try tmux.send("Down") }
        try tmux.pane(showing: " Heart Rate Measurement · 2A37 · notify")
        try tmux.send("n")
        screen = try tmux.pane("two heart rates plotted") { $0.contains("2 measurements") }
        XCTAssertTrue(screen.contains("♥ "), screen)
        XCTAssertTrue(screen.contains("● 06 "), screen)

        // Narrower and shorter: the screen is laid out again, the status line on the new last row (the
        // old one, on row 40, is gone with the rows tmux cut).
        try tmux.resize(width: 90, height: 30)
        screen = try tmux.pane("the screen at 90 × 30") { pane in
            let lines = pane.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count <= 31
                && TmuxSession.lastLine(of: pane).hasPrefix("Notifications of Heart Rate Measurement")
        }
        XCTAssertTrue(screen.contains("HRM Sim · C4:7C:8D:6A:10:01 · connected"), screen)

        // F2: the simulated radio off; a sentence says so, and the connection ends.
        try tmux.send("F2")
        screen = try tmux.pane(showing: "⚠ The Bluetooth radio is off.")
        XCTAssertTrue(screen.contains("Bluetooth off · simulated BlueZ"), screen)
        try tmux.pane(showing: "disconnected · c connects again")

        // q: the terminal as it was.
        try tmux.send("q")
        screen = try tmux.pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        XCTAssertFalse(screen.contains("BLE Explorer"), screen)
        XCTAssertFalse(screen.contains("bluez-sim:"), "the simulation complained on the way out:\n\(screen)")
        assertGone(daemons)
    }

    func testControlCQuitsWithTheTerminalRestored() throws {
        try tmux.run("env -u RX_BLUEZ \(program)")
        try tmux.pane(showing: "Scanning…")
        let daemons = try daemonsOfExplorer()
        XCTAssertEqual(daemons.count, 1, "ble-explorer runs its own dbus-daemon")
        try tmux.send("C-c")
        let screen = try tmux.pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=130"), screen)
        XCTAssertFalse(screen.contains("BLE Explorer"), screen)
        assertGone(daemons)
    }

    /// The private dbus-daemons this test's `ble-explorer` started: processes below the program
    /// running in the pane's shell (another explorer may be running on the machine) whose program is
    /// `dbus-daemon` (PrivateBus runs it under a watchdog shell) with a configuration in `rxdbus-…`.
    private func daemonsOfExplorer() throws -> Set<Int32> {
        let shell =
            Int32(
                try tmux.tmux("display-message", "-p", "-t", tmux.session, "#{pane_pid}")
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let explorers = Self.children(of: shell).filter { Self.commandLine(of: $0).contains("ble-explorer") }
        return Set(
            explorers.flatMap(Self.descendants(of:)).filter { pid in
                let arguments = Self.commandLine(of: pid).split(separator: "\0")
                return (arguments.first?.hasSuffix("dbus-daemon") ?? false)
                    && arguments.contains { $0.contains("rxdbus-") }
            })
    }

    private static func descendants(of parent: Int32) -> [Int32] {
        children(of: parent).flatMap { [$0] + descendants(of: $0) }
    }

    private static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { self.parent(of: $0) == parent }
    }

    private static func commandLine(of pid: Int32) -> String {
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func parent(of pid: Int32) -> Int32 {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // After the command's closing parenthesis: the state, then the parent's pid.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) ?? 0 : 0
    }

    /// Waits until none of `daemons` runs any more.
    private func assertGone(_ daemons: Set<Int32>, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(3)
        var left = daemons.filter { FileManager.default.fileExists(atPath: "/proc/\($0)") }
        while !left.isEmpty && Date() < deadline {
            usleep(50_000)
            left = daemons.filter { FileManager.default.fileExists(atPath: "/proc/\($0)") }
        }
        XCTAssertEqual(left, [], "the private dbus-daemon outlived ble-explorer", file: file, line: line)
    }
}
