import ExampleTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Two explorers in two terminals, as a person would try the virtual radio: one started with
/// `--advertise` is a heart-rate monitor on the simulated BlueZ it starts; the other, started with
/// `--join`, finds it in its scan, connects, watches its heart rate, and writes it a message. The
/// arrow keys on the first move the plot on the second. Both quit with their terminals restored.
final class ExplorerAdvertiseEndToEndTests: XCTestCase {
    private var program = ""
    private var advertiser: TmuxSession!
    private var watcher: TmuxSession!
    /// Where the advertiser leaves its bus's address for `--join`: a folder of this test's own.
    private var runtimeDirectory = ""

    override func setUpWithError() throws {
        program = try TmuxSession.program("ble-explorer")
        runtimeDirectory = NSTemporaryDirectory() + "ble-explorer-test-\(getpid())"
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true)
        advertiser = try TmuxSession(
            server: "ble-advertiser-test-\(getpid())", session: "advertiser", width: 100, height: 24)
        watcher = try TmuxSession(server: "ble-watcher-test-\(getpid())", session: "watcher", width: 120, height: 40)
    }

    override func tearDown() {
        watcher?.kill()
        advertiser?.kill()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
        super.tearDown()
    }

    func testOneExplorerAdvertisesAndAnotherWatchesItsHeartRate() throws {
        try advertiser.run("env -u RX_BLUEZ XDG_RUNTIME_DIR=\(runtimeDirectory) \(program) --advertise")
        try advertiser.pane(showing: "Advertising as Explorer HRM · 0 centrals listen")
        XCTAssertTrue(try advertiser.capture().contains("Watch it from another terminal: ble-explorer --join"))

        try watcher.run("env -u RX_BLUEZ XDG_RUNTIME_DIR=\(runtimeDirectory) \(program) --join")
        try watcher.pane(showing: "Explorer HRM")
        XCTAssertTrue(try watcher.capture().contains("shared simulated BlueZ"))
        try highlight(prefix: "Explorer HRM", in: watcher)
        try watcher.send("Enter")
        try watcher.pane("the advertiser connected") { $0.contains("Explorer HRM · ") && $0.contains(" · connected") }
        try watcher.pane(showing: "Heart Rate Measurement (2A37)")
        try highlight(prefix: "  └ Heart Rate Measurement (2A37)", in: watcher)
        try watcher.send("n")
        try watcher.pane(showing: "♥ 72 bpm")
        try advertiser.pane(showing: "Advertising as Explorer HRM · 1 central listens")

        // Five steps up on the advertiser: the watcher's plot climbs to 77.
        for _ in 0..<5 {
            try advertiser.send("Up")
            usleep(50_000)
        }
        try advertiser.pane(showing: "Sending 77 bpm.")
        var screen = try watcher.pane(showing: "♥ 77 bpm")
        XCTAssertTrue(screen.contains("highest 77"), screen)

        // A message written on the watcher appears on the advertiser.
        try highlight(prefix: "  └ Message", in: watcher)
        try watcher.send("w")
        usleep(200_000)
        try watcher.send("\"hello\"", "Enter")
        try advertiser.pane(showing: "Message: hello")

        // Both quit; each terminal is as it was.
        try watcher.send("q")
        screen = try watcher.pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        try advertiser.send("q")
        screen = try advertiser.pane(showing: "MODE icanon echo")
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        XCTAssertFalse(screen.contains("BLE Explorer"), screen)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: runtimeDirectory + "/ble-explorer-\(getuid()).bus"),
            "the advertiser left its bus address behind")
    }

    /// Moves the highlight down from the top until the highlighted row starts with `prefix`.
    private func highlight(prefix: String, in tmux: TmuxSession, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        try tmux.send("Home")
        var highlighted = ""
        for _ in 0..<24 {
            highlighted =
                try TmuxSession.highlightedLine(
                    tmux.pane("a highlighted row", colours: true) { TmuxSession.highlightedLine($0) != nil }) ?? ""
            if highlighted.hasPrefix(prefix) { return }
            try tmux.send("Down")
            usleep(100_000)
        }
        XCTFail("never highlighted \(prefix): \(highlighted)", file: file, line: line)
    }
}
