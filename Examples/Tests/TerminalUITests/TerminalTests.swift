import Foundation
import RxSwift
import Synchronization
import TerminalUI
import XCTest

final class TerminalTests: XCTestCase {
    /// The exit codes the terminal asked for, instead of ending the test process.
    private final class ExitCodes: Sendable {
        private let codes = Mutex<[Int32]>([])
        func append(_ code: Int32) { codes.withLock { $0.append(code) } }
        var all: [Int32] { codes.withLock { $0 } }
    }

    private let exitCodes = ExitCodes()

    private func makeTerminal(_ pty: PseudoTerminal, exitsOnControlC: Bool = true) throws -> Terminal {
        try Terminal(
            input: pty.secondary, output: pty.secondary, colorMode: .trueColor, exitsOnControlC: exitsOnControlC,
            exitProcess: { [exitCodes] code in exitCodes.append(code) })
    }

    private func assertCooked(_ pty: PseudoTerminal, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(pty.localFlags & tcflag_t(ECHO), 0, "echo", file: file, line: line)
        XCTAssertNotEqual(pty.localFlags & tcflag_t(ICANON), 0, "icanon", file: file, line: line)
    }

    /// Start switches on raw mode, the alternate screen and SGR mouse reporting; restore switches all
    /// three off again, the mouse first.
    func testStartEntersTheAlternateScreenRawAndRestoreLeavesIt() throws {
        let pty = try PseudoTerminal()
        let terminal = try makeTerminal(pty)
        try terminal.start()
        XCTAssertTrue(terminal.isStarted)
        XCTAssertEqual(pty.localFlags & tcflag_t(ECHO | ICANON), 0)
        XCTAssertEqual(pty.readOutput(), "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[?1000h\u{1B}[?1006h")

        terminal.restore()
        XCTAssertFalse(terminal.isStarted)
        assertCooked(pty)
        XCTAssertEqual(pty.readOutput(), "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        terminal.restore()
        XCTAssertEqual(pty.readOutput(), "")
    }

    func testDrawWritesOnlyTheDifference() throws {
        let pty = try PseudoTerminal()
        let terminal = try makeTerminal(pty)
        try terminal.start()
        defer { terminal.restore() }
        _ = pty.readOutput()
        var grid = CellGrid(size: Size(columns: 20, rows: 3))
        grid.draw("검색:", at: Point(column: 0, row: 0))
        try terminal.draw(grid)
        XCTAssertTrue(pty.readOutput().contains("검색:"))
        grid.draw("서", at: Point(column: 6, row: 0))
        try terminal.draw(grid, cursor: Point(column: 8, row: 0))
        XCTAssertEqual(pty.readOutput(), "\u{1B}[?25l\u{1B}[1;7H서\u{1B}[?25h")
    }

    func testSizeAndResizes() throws {
        let pty = try PseudoTerminal()
        pty.setSize(columns: 100, rows: 30)
        let terminal = try makeTerminal(pty)
        XCTAssertEqual(try terminal.size(), Size(columns: 100, rows: 30))

        var sizes: [Size] = []
        let first = expectation(description: "current size")
        let second = expectation(description: "resized")
        let subscription = terminal.sizes.subscribe(onNext: { size in
            XCTAssertTrue(Thread.isMainThread)
            sizes.append(size)
            if sizes.count == 1 { first.fulfill() }
            if sizes.count == 2 { second.fulfill() }
        })
        wait(for: [first], timeout: 5)
        // The pty is not this process's controlling terminal, so the kernel's SIGWINCH goes elsewhere:
        // send it as the kernel would.
        pty.setSize(columns: 60, rows: 20)
        kill(getpid(), SIGWINCH)
        wait(for: [second], timeout: 5)
        subscription.dispose()
        XCTAssertEqual(sizes, [Size(columns: 100, rows: 30), Size(columns: 60, rows: 20)])
    }

    private func assertSignalRestoresAndExits(_ signalNumber: Int32, code: Int32) throws {
        let pty = try PseudoTerminal()
        let terminal = try makeTerminal(pty)
        try terminal.start()
        _ = pty.readOutput()
        kill(getpid(), signalNumber)
        let deadline = Date().addingTimeInterval(5)
        while exitCodes.all.isEmpty && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(exitCodes.all, [code])
        XCTAssertFalse(terminal.isStarted)
        assertCooked(pty)
        XCTAssertEqual(pty.readOutput(), Self.restored)
    }

    /// What restoring writes: mouse reporting off, the style reset, the cursor shown, the shell's screen.
    private static let restored = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// `q` and Esc in a screen end here: restored as on every other way out, with status 0.
    func testQuitRestoresSwitchesTheMouseOffAndExitsWith0() throws {
        let pty = try PseudoTerminal()
        let terminal = try makeTerminal(pty)
        try terminal.start()
        _ = pty.readOutput()
        terminal.quit()
        XCTAssertEqual(exitCodes.all, [0])
        XCTAssertFalse(terminal.isStarted)
        assertCooked(pty)
        XCTAssertEqual(pty.readOutput(), Self.restored)
    }

    /// Without mouse reporting nothing about the mouse is written, on the way in or out.
    func testATerminalWithoutTheMouseLeavesItAlone() throws {
        let pty = try PseudoTerminal()
        let terminal = try Terminal(
            input: pty.secondary, output: pty.secondary, colorMode: .trueColor, reportsMouse: false,
            exitProcess: { _ in })
        try terminal.start()
        XCTAssertEqual(pty.readOutput(), "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        terminal.restore()
        XCTAssertEqual(pty.readOutput(), "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    }

    func testSIGTERMRestoresAndExitsWith143() throws {
        try assertSignalRestoresAndExits(SIGTERM, code: 143)
    }

    func testSIGINTRestoresAndExitsWith130() throws {
        try assertSignalRestoresAndExits(SIGINT, code: 130)
    }

    func testControlCRestoresAndExitsWith130() throws {
        let pty = try PseudoTerminal()
        let terminal = try makeTerminal(pty)
        try terminal.start()
        _ = pty.readOutput()
        var keys: [Key] = []
        let typed = expectation(description: "keys")
        let subscription = terminal.keys.subscribe(onNext: { key in
            keys.append(key)
            if keys.count == 2 { typed.fulfill() }
        })
        let bytes: [UInt8] = [0x61, 0x03]
        XCTAssertEqual(write(pty.primary, bytes, bytes.count), 2)
        wait(for: [typed], timeout: 5)
        subscription.dispose()
        XCTAssertEqual(keys, [.character("a"), .control("c")])
        XCTAssertEqual(exitCodes.all, [130])
        XCTAssertFalse(terminal.isStarted)
        assertCooked(pty)
        XCTAssertEqual(pty.readOutput(), Self.restored)
    }

    func testControlCIsAKeyWhenTheProgramHandlesIt() throws {
        let pty = try PseudoTerminal()
        let terminal = try makeTerminal(pty, exitsOnControlC: false)
        try terminal.start()
        defer { terminal.restore() }
        let typed = expectation(description: "ctrl-c")
        let subscription = terminal.keys.subscribe(onNext: { key in
            if key == .control("c") { typed.fulfill() }
        })
        XCTAssertEqual(write(pty.primary, [0x03], 1), 1)
        wait(for: [typed], timeout: 5)
        subscription.dispose()
        XCTAssertEqual(exitCodes.all, [])
        XCTAssertTrue(terminal.isStarted)
    }

    func testANonTerminalIsReported() {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { ends.forEach { close($0) } }
        XCTAssertThrowsError(try Terminal(input: ends[0], output: ends[1])) { error in
            XCTAssertEqual(error as? TerminalError, TerminalError(call: "tcgetattr", code: ENOTTY))
        }
    }
}
